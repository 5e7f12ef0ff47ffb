package dev.errand.admin;

import dev.errand.clock.DatabaseClock;
import dev.errand.store.Dialect;
import dev.errand.store.Jdbc;
import dev.errand.store.TaskStore;
import dev.errand.store.Transactions;
import dev.errand.task.Task;
import dev.errand.task.TaskState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Operator actions on tasks. Each method runs in a transaction of its own and reports whether the
 * task was in a state that allows the action. The same operations are available as plain SQL; see
 * {@code docs/SCHEMA.md}.
 */
public final class TaskAdmin {

    private static final String COLUMNS = "id, kind, queue, payload, priority, state, run_at, attempt, max_attempts,"
            + " created_at, started_at, finished_at, lease_owner, lease_expires_at, last_error, errors, unique_key";

    private final Transactions transactions;
    private final Dialect dialect;
    private final String table;
    private final DatabaseClock clock;
    private final TaskStore store;

    /** Creates the admin API; {@link dev.errand.Errand#admin()} returns one. */
    public TaskAdmin(Transactions transactions, Dialect dialect, TaskStore store, DatabaseClock clock) {
        this.transactions = transactions;
        this.dialect = dialect;
        this.table = store.table();
        this.store = store;
        this.clock = clock;
    }

    /** Finds a task by id. */
    public Optional<Task> find(long id) {
        requireId(id);
        return query(c -> {
            try (PreparedStatement statement = c.prepareStatement("SELECT " + COLUMNS + " FROM " + table
                    + " WHERE id = ?")) {
                statement.setLong(1, id);
                try (ResultSet row = statement.executeQuery()) {
                    return row.next() ? Optional.of(read(row)) : Optional.<Task>empty();
                }
            }
        });
    }

    /** Lists a page of tasks that match the query, by id. */
    public Page<Task> list(TaskQuery query) {
        requireQuery(query);
        Filter filter = Filter.of(query);
        return query(c -> {
            List<Task> items = new ArrayList<>();
            try (PreparedStatement statement = c.prepareStatement("SELECT " + COLUMNS + " FROM " + table
                    + filter.where() + " ORDER BY id LIMIT ? OFFSET ?")) {
                int next = filter.bind(statement);
                statement.setInt(next++, query.limit());
                statement.setInt(next, query.offset());
                try (ResultSet row = statement.executeQuery()) {
                    while (row.next()) {
                        items.add(read(row));
                    }
                }
            }
            return new Page<>(items, count(c, filter), query.offset(), query.limit());
        });
    }

    /** Counts the tasks that match the query (its offset and limit are ignored). */
    public long count(TaskQuery query) {
        requireQuery(query);
        return query(c -> count(c, Filter.of(query)));
    }

    /** Cancels a pending or waiting task; returns false if it is in any other state or gone. */
    public boolean cancel(long id) {
        requireId(id);
        return update("UPDATE " + table + " SET state = 'cancelled', finished_at = " + dialect.timePlusMicros()
                + " WHERE id = ? AND state IN ('pending', 'waiting')", offset(), id);
    }

    /**
     * Runs a failed or cancelled task again now, with a fresh count of attempts; its error history
     * stays. Returns false if it is in any other state or gone.
     */
    public boolean retryNow(long id) {
        requireId(id);
        return update("UPDATE " + table + " SET state = 'pending', attempt = 0, run_at = " + dialect.timePlusMicros()
                + ", finished_at = NULL WHERE id = ? AND state IN ('failed', 'cancelled')", offset(), id);
    }

    /**
     * Moves a pending task to a new run time; returns false if it is not pending or gone. To run a
     * failed task again, use {@link #retryNow(long)}.
     */
    public boolean reschedule(long id, Instant runAt) {
        requireId(id);
        if (runAt == null) {
            throw new IllegalArgumentException("runAt must not be null; pass the instant the task may run from");
        }
        return update("UPDATE " + table + " SET run_at = " + dialect.timestampParam()
                + " WHERE id = ? AND state = 'pending'", dialect.timestampValue(runAt), id);
    }

    /**
     * Deletes a task in any state. A running attempt of a deleted task finds its row gone and writes
     * nothing. Returns false if there was no such task.
     */
    public boolean delete(long id) {
        requireId(id);
        return update("DELETE FROM " + table + " WHERE id = ?", id);
    }

    /** Deletes succeeded tasks that finished more than {@code olderThan} ago; returns how many. */
    public int pruneSucceeded(Duration olderThan) {
        if (olderThan == null || olderThan.isNegative()) {
            throw new IllegalArgumentException("olderThan must be zero or more, got " + olderThan);
        }
        return query(c -> store.pruneSucceeded(c, olderThan, offset()));
    }

    private long offset() {
        return TaskStore.micros(clock.offset());
    }

    private long count(Connection c, Filter filter) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement("SELECT COUNT(*) FROM " + table + filter.where())) {
            filter.bind(statement);
            try (ResultSet row = statement.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    private boolean update(String sql, Object... parameters) {
        return query(c -> {
            try (PreparedStatement statement = c.prepareStatement(sql)) {
                for (int i = 0; i < parameters.length; i++) {
                    statement.setObject(i + 1, parameters[i]);
                }
                return statement.executeUpdate() == 1;
            }
        });
    }

    private <T> T query(Jdbc.ConnectionWork<T> work) {
        try {
            return transactions.run("admin", work);
        } catch (SQLException e) {
            throw new IllegalStateException("Errand admin query failed: " + e.getMessage(), e);
        }
    }

    private Task read(ResultSet row) throws SQLException {
        return new Task(row.getLong("id"), row.getString("kind"), row.getString("queue"), row.getString("payload"),
                row.getInt("priority"), TaskState.fromDbValue(row.getString("state")), dialect.readInstant(row, "run_at"),
                row.getInt("attempt"), row.getInt("max_attempts"), dialect.readInstant(row, "created_at"),
                dialect.readInstant(row, "started_at"), dialect.readInstant(row, "finished_at"), row.getString("lease_owner"),
                dialect.readInstant(row, "lease_expires_at"), row.getString("last_error"), row.getString("errors"),
                row.getString("unique_key"));
    }

    private static void requireId(long id) {
        if (id < 1) {
            throw new IllegalArgumentException("Task ids are positive numbers, got " + id);
        }
    }

    private static void requireQuery(TaskQuery query) {
        if (query == null) {
            throw new IllegalArgumentException("query must not be null; use TaskQuery.all() to match every task");
        }
    }

    /** The WHERE clause of a query and its parameters. */
    private record Filter(String where, List<String> parameters) {
        static Filter of(TaskQuery query) {
            List<String> conditions = new ArrayList<>();
            List<String> parameters = new ArrayList<>();
            if (query.state() != null) {
                conditions.add("state = ?");
                parameters.add(query.state().dbValue());
            }
            if (query.kind() != null) {
                conditions.add("kind = ?");
                parameters.add(query.kind());
            }
            if (query.queue() != null) {
                conditions.add("queue = ?");
                parameters.add(query.queue());
            }
            return new Filter(conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions), parameters);
        }

        int bind(PreparedStatement statement) throws SQLException {
            int index = 1;
            for (String parameter : parameters) {
                statement.setString(index++, parameter);
            }
            return index;
        }
    }
}
