package dev.errand.internal.store;

import dev.errand.admin.QueueLoads;
import dev.errand.admin.TaskCounts;
import dev.errand.spi.DatabaseClock;
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
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** The admin API's SQL: reads of task rows and counts, and the operator's state changes. */
public final class TaskQueries {

    /** The columns {@link #read(ResultSet)} reads. */
    public static final String COLUMNS = "id, kind, queue, payload, priority, state, run_at, attempt, max_attempts,"
            + " created_at, started_at, finished_at, lease_owner, lease_expires_at, last_error, errors, unique_key";

    private final Dialect dialect;
    private final DatabaseClock clock;
    private final String table;
    private final String now;

    /** Creates the queries for a table; its statements read the offset of the node's {@code clock} themselves. */
    public TaskQueries(Dialect dialect, String table, DatabaseClock clock) {
        this.clock = clock;
        this.dialect = dialect;
        this.table = table;
        this.now = dialect.timePlusMicros();
    }

    /** One task by id. */
    public Optional<Task> find(Connection c, long id) throws SQLException {
        try (PreparedStatement statement =
                c.prepareStatement("SELECT " + COLUMNS + " FROM " + table + " WHERE id = ?")) {
            statement.setLong(1, id);
            try (ResultSet row = statement.executeQuery()) {
                return row.next() ? Optional.of(read(row)) : Optional.empty();
            }
        }
    }

    /** Cancels a pending or waiting task. */
    public boolean cancel(Connection c, long id) throws SQLException {
        long offsetMicros = offsetMicros();
        return update(
                c,
                "UPDATE " + table + " SET state = " + States.CANCELLED + ", finished_at = " + now
                        + " WHERE id = ? AND state IN " + States.in(TaskState.PENDING, TaskState.WAITING),
                offsetMicros,
                id);
    }

    /**
     * Puts a failed or cancelled task back to pending, now, with a fresh count of attempts and without its
     * deadline: an operator who runs an expired task again means it to run.
     */
    public boolean retryNow(Connection c, long id) throws SQLException {
        long offsetMicros = offsetMicros();
        return update(
                c,
                "UPDATE " + table + " SET state = " + States.PENDING + ", attempt = 0, run_at = " + now
                        + ", finished_at = NULL, expires_at = NULL WHERE id = ? AND state IN "
                        + States.in(TaskState.FAILED, TaskState.CANCELLED),
                offsetMicros,
                id);
    }

    /**
     * The same as {@link #retryNow(Connection, long, long)}, but only if the task is in {@code from} (failed
     * or cancelled): the caller moves the task's batch count from exactly that state.
     */
    public boolean retryNowFrom(Connection c, long id, TaskState from) throws SQLException {
        long offsetMicros = offsetMicros();
        return update(
                c,
                "UPDATE " + table + " SET state = " + States.PENDING + ", attempt = 0, run_at = " + now
                        + ", finished_at = NULL, expires_at = NULL WHERE id = ? AND state = " + States.literal(from)
                        + " AND state IN " + States.in(TaskState.FAILED, TaskState.CANCELLED),
                offsetMicros,
                id);
    }

    /** Deletes a task if it is still in {@code state}: the caller counts it by that state. */
    public boolean deleteIn(Connection c, long id, TaskState state) throws SQLException {
        return update(c, "DELETE FROM " + table + " WHERE id = ? AND state = " + States.literal(state), id);
    }

    /** Moves a pending task's run time. */
    public boolean reschedule(Connection c, long id, Instant runAt) throws SQLException {
        return update(
                c,
                "UPDATE " + table + " SET run_at = " + dialect.timestampParam() + " WHERE id = ? AND state = "
                        + States.PENDING,
                dialect.timestampValue(runAt),
                id);
    }

    /** Deletes a task in any state. */
    public boolean delete(Connection c, long id) throws SQLException {
        return update(c, "DELETE FROM " + table + " WHERE id = ?", id);
    }

    /** Counts every task by state, kind and queue in one statement, and lists the lease owners. */
    public TaskCounts counts(Connection c, Duration overdueAfter) throws SQLException {
        long offsetMicros = offsetMicros();
        String pending = "state = " + States.PENDING;
        List<TaskCounts.Count> counts = new ArrayList<>();
        Instant databaseTime = databaseTime(c);
        try (PreparedStatement s = c.prepareStatement("SELECT state, kind, queue, COUNT(*) AS tasks,"
                + " SUM(CASE WHEN " + pending + " AND run_at <= " + now + " THEN 1 ELSE 0 END) AS due,"
                + " SUM(CASE WHEN " + pending + " AND run_at < " + now + " THEN 1 ELSE 0 END) AS overdue,"
                + " MIN(CASE WHEN " + pending + " AND run_at <= " + now + " THEN run_at END) AS oldest_due"
                + " FROM " + table + " GROUP BY state, kind, queue ORDER BY kind, queue, state")) {
            s.setLong(1, offsetMicros);
            s.setLong(2, Micros.plus(offsetMicros, -Micros.ofAge(overdueAfter)));
            s.setLong(3, offsetMicros);
            try (ResultSet row = s.executeQuery()) {
                while (row.next()) {
                    Instant oldest = dialect.readInstant(row, "oldest_due");
                    counts.add(new TaskCounts.Count(
                            TaskState.fromDbValue(row.getString("state")),
                            row.getString("kind"),
                            row.getString("queue"),
                            row.getLong("tasks"),
                            row.getLong("due"),
                            row.getLong("overdue"),
                            lag(oldest, databaseTime)));
                }
            }
        }
        List<String> owners = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("SELECT DISTINCT lease_owner FROM " + table + " WHERE state = "
                        + States.RUNNING + " AND lease_owner IS NOT NULL ORDER BY lease_owner");
                ResultSet row = s.executeQuery()) {
            while (row.next()) {
                owners.add(row.getString(1));
            }
        }
        return new TaskCounts(databaseTime, counts, owners);
    }

    /** Due tasks per queue, and the failed and overdue counts, from the claim index. */
    public QueueLoads load(Connection c, Duration overdueAfter) throws SQLException {
        long offsetMicros = offsetMicros();
        Instant databaseTime = databaseTime(c);
        Map<String, QueueLoads.QueueLoad> queues = new TreeMap<>();
        long overdue = 0;
        try (PreparedStatement s = c.prepareStatement("SELECT queue, COUNT(*) AS due, MIN(run_at) AS oldest,"
                + " SUM(CASE WHEN run_at < " + now + " THEN 1 ELSE 0 END) AS overdue FROM " + table
                + " WHERE state = " + States.PENDING + " AND run_at <= " + now + " GROUP BY queue")) {
            s.setLong(1, Micros.plus(offsetMicros, -Micros.ofAge(overdueAfter)));
            s.setLong(2, offsetMicros);
            try (ResultSet row = s.executeQuery()) {
                while (row.next()) {
                    queues.put(
                            row.getString("queue"),
                            new QueueLoads.QueueLoad(
                                    row.getLong("due"), lag(dialect.readInstant(row, "oldest"), databaseTime)));
                    overdue += row.getLong("overdue");
                }
            }
        }
        long failed;
        try (PreparedStatement s =
                        c.prepareStatement("SELECT COUNT(*) FROM " + table + " WHERE state = " + States.FAILED);
                ResultSet row = s.executeQuery()) {
            row.next();
            failed = row.getLong(1);
        }
        return new QueueLoads(databaseTime, queues, failed, overdue);
    }

    private Instant databaseTime(Connection c) throws SQLException {
        long offsetMicros = offsetMicros();
        try (PreparedStatement s = c.prepareStatement("SELECT " + now + " AS db_now")) {
            s.setLong(1, offsetMicros);
            try (ResultSet row = s.executeQuery()) {
                row.next();
                return dialect.readInstant(row, "db_now");
            }
        }
    }

    private static Duration lag(Instant oldest, Instant now) {
        if (oldest == null) {
            return Duration.ZERO;
        }
        Duration lag = Duration.between(oldest, now);
        return lag.isNegative() ? Duration.ZERO : lag;
    }

    private static boolean update(Connection c, String sql, Object... parameters) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            return statement.executeUpdate() == 1;
        }
    }

    /** Reads a row of {@link #COLUMNS} into a task. */
    public Task read(ResultSet row) throws SQLException {
        return new Task(
                row.getLong("id"),
                row.getString("kind"),
                row.getString("queue"),
                row.getString("payload"),
                row.getInt("priority"),
                TaskState.fromDbValue(row.getString("state")),
                dialect.readInstant(row, "run_at"),
                row.getInt("attempt"),
                row.getInt("max_attempts"),
                dialect.readInstant(row, "created_at"),
                dialect.readInstant(row, "started_at"),
                dialect.readInstant(row, "finished_at"),
                row.getString("lease_owner"),
                dialect.readInstant(row, "lease_expires_at"),
                row.getString("last_error"),
                row.getString("errors"),
                row.getString("unique_key"));
    }

    /** The clock's offset in microseconds, read for each statement that means "now". */
    private long offsetMicros() {
        return Micros.of(clock.offset());
    }
}
