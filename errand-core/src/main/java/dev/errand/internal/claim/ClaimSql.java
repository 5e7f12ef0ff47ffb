package dev.errand.internal.claim;

import dev.errand.config.ClaimOrder;
import dev.errand.internal.store.Dialect;
import dev.errand.internal.store.States;
import dev.errand.internal.store.TaskRows;
import dev.errand.spi.ClaimRequest;
import dev.errand.spi.ClaimedTask;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/** SQL pieces the claim strategies share. */
final class ClaimSql {

    static final String COLUMNS = TaskRows.CLAIMED_COLUMNS;

    /**
     * The highest attempt number a claim writes. A row that an operator set to a huge attempt (say
     * {@code Integer.MAX_VALUE}) would otherwise overflow {@code attempt + 1} and fail every claim of
     * its queue; bounded, it is claimed, runs as its last attempt, and fails alone.
     */
    static final int MAX_ATTEMPT_NUMBER = 1_000_000;

    /** The priorities a task may have (the table's CHECK constraint). */
    static final int LOWEST_PRIORITY = 10;

    /** {@code 1, 2, …, LOWEST_PRIORITY}, for an {@code IN} list. */
    private static final String EVERY_PRIORITY = IntStream.rangeClosed(1, LOWEST_PRIORITY)
            .mapToObj(Integer::toString)
            .collect(Collectors.joining(", "));

    private ClaimSql() {}

    /**
     * Due pending tasks of one queue, best first, optionally locked with {@code FOR UPDATE SKIP LOCKED}.
     * Bind its parameters with {@link #bindDue}. A locked read is refused for a dialect that locks every match
     * before the limit (H2): claim with {@link #lockDue} there.
     *
     * <p>Where the dialect supports it (PostgreSQL), the query reads one range of the claim index per
     * priority, {@code (queue, p, run_at <= now)}, in a {@code LATERAL} subquery over the priorities 1
     * to 10, each with its own limit; the outer limit stops the loop once enough rows are found. A
     * single ordered scan of the index would instead walk past every task of a better priority that is
     * not due yet (with a million tasks scheduled for tomorrow at priority 1, each claim read them all
     * before reaching today's priority-5 tasks). PostgreSQL runs a {@code LATERAL} join over a series
     * as a nested loop in series order, so rows come out by priority and, within one, by
     * {@code run_at}; a row lock is taken only on the rows the outer limit lets through.
     *
     * <p>On MariaDB and MySQL the query names every priority in an {@code IN} list, which their range
     * optimizer turns into the same ten ranges {@code (queue, p, run_at <= now)}, read in index order
     * without a sort. H2's optimizer does not (it reads the list more slowly than one ordered scan), so
     * H2 keeps the scan.
     */
    static String dueTasks(Dialect dialect, String table, String columns, boolean lock, ClaimOrder order) {
        return dueTasks(dialect, table, columns, lock, false, order);
    }

    /**
     * {@link #dueTasks(Dialect, String, String, boolean, ClaimOrder)} for a node that is {@code exclusive} or not. The
     * pin filter applies to the rows the claim index finds (see {@link #pinned}).
     */
    static String dueTasks(
            Dialect dialect, String table, String columns, boolean lock, boolean exclusive, ClaimOrder order) {
        return dueTasks(dialect, table, columns, lock, new Shape(exclusive, "", order));
    }

    /**
     * {@link #dueTasks(Dialect, String, String, boolean, boolean, ClaimOrder)} in the {@code shape}'s order, with
     * its filter, a condition that starts with {@code " AND "}, checked on the rows the claim index finds, like
     * the pin filter. The filter's parameters are bound after the node groups (see {@link #bindDue(Dialect,
     * PreparedStatement, int, ClaimRequest, int, java.util.List)}).
     *
     * <p>With {@link ClaimOrder#FEWEST_ATTEMPTS_FIRST} the rows of one priority are sorted by attempt, then
     * {@code run_at}: the database reads every due row of that priority from the claim index and keeps the
     * best ones, where the default order stops after the first few.
     */
    static String dueTasks(Dialect dialect, String table, String columns, boolean lock, Shape shape) {
        boolean exclusive = shape.exclusive();
        String filter = shape.filter();
        String within = shape.order() == ClaimOrder.FEWEST_ATTEMPTS_FIRST ? "attempt, run_at" : "run_at";
        String skipLocked = lock ? " FOR UPDATE SKIP LOCKED" : "";
        if (dialect.supportsLateralJoin()) {
            return "SELECT due.* FROM generate_series(1, " + LOWEST_PRIORITY + ") AS level(priority)"
                    + " CROSS JOIN LATERAL (SELECT " + columns + " FROM " + table
                    + " WHERE state = " + States.PENDING + " AND queue = ? AND priority = level.priority AND run_at <= "
                    + dialect.timePlusMicros() + notExpired(dialect) + pinned(exclusive) + filter
                    + " ORDER BY " + within + " LIMIT ?"
                    + skipLocked
                    + ") AS due LIMIT ?";
        }
        String priorities = dialect.readsPriorityListAsRanges() ? " AND priority IN (" + EVERY_PRIORITY + ")" : "";
        String due = " FROM " + table + " WHERE state = " + States.PENDING + " AND queue = ?" + priorities
                + " AND run_at <= " + dialect.timePlusMicros() + notExpired(dialect) + pinned(exclusive) + filter
                + " ORDER BY "
                + dialect.orderAlongIndex(
                        shape.keyed() ? "state, kind, queue, limit_key" : "state, queue", "priority, " + within)
                + " LIMIT ?";
        if (lock && dialect.locksEveryMatchBeforeTheLimit()) {
            throw new IllegalStateException(
                    "This database locks every match before the limit: claim with lockDue, in two statements");
        }
        return "SELECT " + columns + due + skipLocked;
    }

    /**
     * Locks and reads up to {@code limit} due tasks of the request's queue that the shape lets through, best first,
     * in the caller's transaction: {@link #dueTasks(Dialect, String, String, boolean, Shape)} with {@code FOR UPDATE
     * SKIP LOCKED} where the database stops locking at the limit.
     *
     * <p>Where it does not (H2 reads and locks every match of a {@code FOR UPDATE} before it applies the limit), two
     * statements: a read that locks nothing takes the ids of the first {@code limit} due tasks along the claim
     * index, then {@code SELECT … WHERE id = ANY(?) AND state = 'pending' … FOR UPDATE SKIP LOCKED} locks those by
     * primary key; one that another claim took meanwhile is skipped, or is no longer pending once its lock is ours.
     * One statement with the read as an {@code IN} subquery did the same, but H2 ran the subquery again for every row
     * the outer query read: a claim of 500 at a backlog of 100,000 took 124 to 210 ms, where the two statements
     * take 4 to 5 ms.
     *
     * @param filterValues the values of the shape's filter parameters, in order
     */
    static List<ClaimedTask> lockDue(
            Connection connection,
            Dialect dialect,
            String table,
            Shape shape,
            ClaimRequest request,
            int limit,
            List<String> filterValues)
            throws SQLException {
        List<ClaimedTask> tasks = new ArrayList<>(limit);
        boolean twoStatements = dialect.locksEveryMatchBeforeTheLimit();
        String due = dueTasks(dialect, table, twoStatements ? "id" : COLUMNS, !twoStatements, shape);
        List<Long> ids = new ArrayList<>(limit);
        try (PreparedStatement statement = connection.prepareStatement(due)) {
            bindDue(dialect, statement, 1, request, limit, filterValues);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    if (twoStatements) {
                        ids.add(rows.getLong(1));
                    } else {
                        tasks.add(read(rows, request.leaseToken(), true));
                    }
                }
            }
        }
        if (!twoStatements || ids.isEmpty()) {
            return tasks;
        }
        try (PreparedStatement statement =
                connection.prepareStatement(lockByIds(dialect, table, COLUMNS, ids.size(), shape.order()))) {
            dialect.bindIds(
                    statement, 1, ids.stream().mapToLong(Long::longValue).toArray());
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    tasks.add(read(rows, request.leaseToken(), true));
                }
            }
        }
        return tasks;
    }

    /**
     * Locks and reads due tasks of several limit keys of one kind in one statement (PostgreSQL): for each key of the
     * keys array, in order, up to its entry in the array of counts, best first, along the key index {@code (kind,
     * queue, limit_key, priority, run_at)}, and the outer limit in all. A {@code LATERAL} join over the keys runs as a nested
     * loop in array order, and a row is locked only once the outer limit lets it through. Each row also holds its
     * key as {@code flow_key}. Bind with {@link #bindPerKey}.
     */
    static String duePerKey(Dialect dialect, String table, Shape shape) {
        String within = shape.order() == ClaimOrder.FEWEST_ATTEMPTS_FIRST ? "attempt, run_at" : "run_at";
        return "SELECT tried.flow_key, due.* FROM unnest(CAST(? AS TEXT[]), CAST(? AS INTEGER[]))"
                + " AS tried(flow_key, wanted) CROSS JOIN LATERAL (SELECT " + COLUMNS + " FROM " + table
                + " WHERE state = " + States.PENDING + " AND queue = ? AND kind = ? AND limit_key = tried.flow_key"
                + " AND run_at <= " + dialect.timePlusMicros() + notExpired(dialect) + pinned(shape.exclusive())
                + shape.filter() + " ORDER BY priority, " + within + " LIMIT tried.wanted FOR UPDATE SKIP LOCKED)"
                + " AS due LIMIT ?";
    }

    /**
     * Binds {@link #duePerKey}: the keys, how many of each, the queue, the kind, the clock offset (twice), the node id
     * and groups, and the most in all.
     */
    static void bindPerKey(
            PreparedStatement statement,
            ClaimRequest request,
            String kind,
            java.util.Map<String, Integer> wanted,
            int most)
            throws SQLException {
        Connection connection = statement.getConnection();
        int i = 1;
        statement.setArray(i++, connection.createArrayOf("text", wanted.keySet().toArray()));
        statement.setArray(
                i++, connection.createArrayOf("integer", wanted.values().toArray()));
        statement.setString(i++, request.queue());
        statement.setString(i++, kind);
        statement.setLong(i++, request.clockOffsetMicros());
        statement.setLong(i++, request.clockOffsetMicros());
        statement.setString(i++, request.owner());
        statement.setString(i++, request.nodeGroupsFramed());
        statement.setInt(i, most);
    }

    /**
     * Locks, skipping locked rows, the pending tasks among {@code count} ids and reads their {@code columns}, best
     * first; bind the ids with {@link Dialect#bindIds}. The second statement of {@link #lockDue}.
     */
    static String lockByIds(Dialect dialect, String table, String columns, int count, ClaimOrder order) {
        String within = order == ClaimOrder.FEWEST_ATTEMPTS_FIRST ? "attempt, run_at" : "run_at";
        return "SELECT " + columns + " FROM " + table + " WHERE " + dialect.idIn("id", count) + " AND state = "
                + States.PENDING + " ORDER BY priority, " + within + " FOR UPDATE SKIP LOCKED";
    }

    /**
     * What a claim selects beyond the queue's due tasks.
     *
     * @param exclusive whether the node is exclusive (see {@link #pinned})
     * @param filter a further condition that starts with {@code " AND "}, or {@code ""}
     * @param order the order within a priority
     * @param keyed whether the filter names one kind and one limit key, so that the claim reads the key index {@code
     *     (state, kind, queue, limit_key, priority, run_at)} rather than the queue's claim index
     */
    record Shape(boolean exclusive, String filter, ClaimOrder order, boolean keyed) {
        /** A shape whose filter does not name one key. */
        Shape(boolean exclusive, String filter, ClaimOrder order) {
            this(exclusive, filter, order, false);
        }
    }

    /**
     * Leaves out tasks past their deadline: the expiry sweep fails them, and until it does they must not
     * start. Checked on the rows the claim index already found, so it costs no extra read.
     */
    private static String notExpired(Dialect dialect) {
        return " AND (expires_at IS NULL OR expires_at > " + dialect.timePlusMicros() + ")";
    }

    /**
     * Keeps the tasks this node may run. A normal node takes unpinned tasks, those pinned to its id, and
     * those pinned (by group only) to one of its groups; an exclusive node takes only the last two. A task
     * pinned to a node and a group belongs to that node: the group is where its pin policy may send it
     * later. Parameters: the node id, then its groups framed by commas ({@code ",a,b,"}), so that the
     * statement's text is the same for every node. Checked on the rows the claim index found, like the
     * deadline: the index stays {@code (queue, priority, run_at)}, and a claim walks past due tasks that
     * are pinned elsewhere (see docs/CLUSTER.md for the figure).
     */
    static String pinned(boolean exclusive) {
        String inGroups = "POSITION(CONCAT(',', node_group, ',') IN ?) > 0";
        if (exclusive) {
            return " AND (node_id = ? OR (node_id IS NULL AND node_group IS NOT NULL AND " + inGroups + "))";
        }
        return " AND (node_id IS NULL OR node_id = ?) AND (node_id IS NOT NULL OR node_group IS NULL OR " + inGroups
                + ")";
    }

    /**
     * Binds the parameters of {@link #dueTasks} from {@code index}: queue, clock offset (twice), node id,
     * node groups and limit.
     *
     * @return the index of the next parameter
     */
    static int bindDue(Dialect dialect, PreparedStatement statement, int index, ClaimRequest request, int limit)
            throws SQLException {
        return bindDue(dialect, statement, index, request, limit, java.util.List.of());
    }

    /** {@link #bindDue(Dialect, PreparedStatement, int, ClaimRequest, int)} with the values of a filter. */
    static int bindDue(
            Dialect dialect,
            PreparedStatement statement,
            int index,
            ClaimRequest request,
            int limit,
            java.util.List<String> filterValues)
            throws SQLException {
        int i = index;
        statement.setString(i++, request.queue());
        statement.setLong(i++, request.clockOffsetMicros());
        statement.setLong(i++, request.clockOffsetMicros());
        statement.setString(i++, request.owner());
        statement.setString(i++, request.nodeGroupsFramed());
        for (String value : filterValues) {
            statement.setString(i++, value);
        }
        statement.setInt(i++, limit);
        if (dialect.supportsLateralJoin()) {
            statement.setInt(i++, limit);
        }
        return i;
    }

    /** The SET clause that takes a lease. Parameters: owner, token, lease micros, clock offset. */
    static String takeLease(Dialect dialect) {
        return "SET state = " + States.RUNNING + ", attempt = LEAST(attempt, " + (MAX_ATTEMPT_NUMBER - 1)
                + ") + 1, version = version + 1, lease_owner = ?,"
                + " lease_token = ?, lease_expires_at = " + dialect.timePlusMicros() + ", started_at = "
                + dialect.timePlusMicros();
    }

    /**
     * Reads a claimed task from a row read before the claim's update (which counts the attempt), or
     * after it.
     */
    static ClaimedTask read(ResultSet row, long token, boolean readBeforeUpdate) throws SQLException {
        int attempt = row.getInt("attempt");
        // The same arithmetic as takeLease's SET clause.
        int counted = readBeforeUpdate ? Math.min(attempt, MAX_ATTEMPT_NUMBER - 1) + 1 : attempt;
        return TaskRows.claimed(row, token, counted - attempt);
    }
}
