package dev.errand.internal.admin;

import dev.errand.admin.BulkCount;
import dev.errand.admin.KeysetPage;
import dev.errand.admin.TaskCount;
import dev.errand.admin.TaskOrder;
import dev.errand.admin.TaskQuery;
import dev.errand.internal.store.Dialect;
import dev.errand.internal.store.Storage;
import dev.errand.internal.store.TaskQueries;
import dev.errand.task.Task;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;

/** The SQL of the task list: pages by offset or by keyset, and counts, exact or bounded with an estimate. */
final class TaskListing {

    private final Storage storage;
    private final Dialect dialect;
    private final String table;
    private final TaskQueries rows;

    TaskListing(Storage storage, TaskQueries rows) {
        this.storage = storage;
        this.dialect = storage.dialect();
        this.table = storage.tasks().table();
        this.rows = rows;
    }

    /** The page the query's offset chooses, in its order. */
    List<Task> page(Connection c, TaskQuery query) throws SQLException {
        TaskFilter filter = TaskFilter.of(storage, query, true);
        return select(
                c,
                filter,
                query.order() == TaskOrder.ID_ASCENDING,
                " LIMIT " + query.limit() + " OFFSET " + query.offset());
    }

    /**
     * How many tasks match the query's filters.
     *
     * @param cursors whether its keyset cursors apply (as they do to an offset page's items)
     */
    long count(Connection c, TaskQuery query, boolean cursors) throws SQLException {
        TaskFilter filter = TaskFilter.of(storage, query, cursors);
        return scalar(c, "SELECT COUNT(*) FROM " + table + filter.joinAndWhere(), filter);
    }

    /** The page after or before the query's cursor, with the cursors either side. */
    KeysetPage<Task> keyset(Connection c, TaskQuery query) throws SQLException {
        boolean ascending = query.order() == TaskOrder.ID_ASCENDING;
        Long forwardCursor = ascending ? query.after() : query.before();
        Long backwardCursor = ascending ? query.before() : query.after();
        // Only a cursor behind the page (a "previous" link) reads against the listing's order.
        boolean readForward = backwardCursor == null || forwardCursor != null;
        List<Task> items = select(
                c, TaskFilter.of(storage, query, true), readForward == ascending, " LIMIT " + (query.limit() + 1));
        boolean more = items.size() > query.limit();
        items = new ArrayList<>(more ? items.subList(0, query.limit()) : items);
        if (!readForward) {
            Collections.reverse(items);
        }
        TaskFilter plain = TaskFilter.of(storage, query, false);
        String forward = ascending ? ">" : "<";
        String backward = ascending ? "<" : ">";
        Long next;
        Long previous;
        if (items.isEmpty()) {
            // Nothing between the cursors: point at the cursors themselves, so that a neighbour stays reachable.
            next = backwardCursor != null && exists(c, plain, forward + "=", backwardCursor)
                    ? backwardCursor + (ascending ? -1 : 1)
                    : null;
            previous = forwardCursor != null && exists(c, plain, backward + "=", forwardCursor)
                    ? forwardCursor + (ascending ? 1 : -1)
                    : null;
        } else {
            long first = items.get(0).id();
            long last = items.get(items.size() - 1).id();
            boolean hasNext = readForward && backwardCursor == null ? more : exists(c, plain, forward, last);
            boolean hasPrevious = !readForward ? more : forwardCursor != null && exists(c, plain, backward, first);
            next = hasNext ? last : null;
            previous = hasPrevious ? first : null;
        }
        return new KeysetPage<>(items, next, previous);
    }

    /**
     * Counts up to {@code exactUpTo + 1} matches; above {@code exactUpTo}, the dialect's estimate (never below
     * what was counted), or an exact count where the dialect has no estimate.
     */
    TaskCount count(Connection c, TaskQuery query, long exactUpTo) throws SQLException {
        TaskFilter filter = TaskFilter.of(storage, query, false);
        String matches = "SELECT 1 FROM " + table + filter.joinAndWhere();
        long bounded = scalar(
                c, "SELECT COUNT(*) FROM (" + matches + " LIMIT " + (exactUpTo + 1) + ") bounded_matches", filter);
        if (bounded <= exactUpTo) {
            return new TaskCount(bounded, true);
        }
        OptionalLong estimate = dialect.estimateRows(c, matches, filter.parameters());
        if (estimate.isEmpty()) {
            return new TaskCount(scalar(c, "SELECT COUNT(*) FROM " + table + filter.joinAndWhere(), filter), true);
        }
        return new TaskCount(Math.max(estimate.getAsLong(), bounded), false);
    }

    /** The exact count of what a bulk action on the filter selects, and the highest id among it. */
    BulkCount countForBulk(Connection c, TaskQuery query) throws SQLException {
        TaskFilter filter = TaskFilter.of(storage, query, true);
        try (PreparedStatement statement =
                c.prepareStatement("SELECT COUNT(*), MAX(id) FROM " + table + filter.joinAndWhere())) {
            filter.bind(statement, 1);
            try (ResultSet row = statement.executeQuery()) {
                row.next();
                return new BulkCount(row.getLong(1), row.getLong(2));
            }
        }
    }

    private List<Task> select(Connection c, TaskFilter filter, boolean ascending, String limit) throws SQLException {
        List<Task> items = new ArrayList<>();
        try (PreparedStatement statement = c.prepareStatement("SELECT " + TaskQueries.COLUMNS + " FROM " + table
                + filter.joinAndWhere() + " ORDER BY id " + (ascending ? "ASC" : "DESC") + limit)) {
            filter.bind(statement, 1);
            try (ResultSet row = statement.executeQuery()) {
                while (row.next()) {
                    items.add(rows.read(row));
                }
            }
        }
        return items;
    }

    /** Whether a match lies on the {@code comparison} side of {@code id}. */
    private boolean exists(Connection c, TaskFilter filter, String comparison, long id) throws SQLException {
        TaskFilter side = filter.and("id " + comparison + " ?", id);
        try (PreparedStatement statement =
                c.prepareStatement("SELECT id FROM " + table + side.joinAndWhere() + " LIMIT 1")) {
            side.bind(statement, 1);
            try (ResultSet row = statement.executeQuery()) {
                return row.next();
            }
        }
    }

    private static long scalar(Connection c, String sql, TaskFilter filter) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement(sql)) {
            filter.bind(statement, 1);
            try (ResultSet row = statement.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }
}
