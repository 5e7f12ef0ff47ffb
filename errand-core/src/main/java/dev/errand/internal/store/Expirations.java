package dev.errand.internal.store;

import dev.errand.config.TablePrefix;
import dev.errand.spi.ClaimedTask;
import dev.errand.spi.DatabaseClock;
import dev.errand.task.TaskState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The SQL of deadlines: pending and waiting tasks past their own deadline, waiting tasks with a condition
 * past its deadline, and marking such a task failed. A running task is never expired: its attempt ends
 * as it ends, and a retry it leaves behind is pending again, and expires.
 */
public final class Expirations {

    private final Dialect dialect;
    private final DatabaseClock clock;
    private final String taskTable;
    private final String conditionTable;
    private final String now;

    /** Creates the statements for a table prefix; its statements read the offset of the node's {@code clock} themselves. */
    public Expirations(Dialect dialect, TablePrefix tables, DatabaseClock clock) {
        this.clock = clock;
        this.dialect = dialect;
        this.taskTable = tables.taskTable();
        this.conditionTable = tables.conditionTable();
        this.now = dialect.timePlusMicros();
    }

    /**
     * A task past a deadline.
     *
     * @param task the task, read as a claim reads it (its lease token is 0: it holds none)
     * @param deadline the deadline that passed
     * @param condition the condition whose deadline it was, or {@code null} for the task's own
     */
    public record Expiring(ClaimedTask task, Instant deadline, String condition) {}

    /** Pending and waiting tasks past their own deadline, soonest first. */
    public List<Expiring> dueTasks(Connection c, int limit) throws SQLException {
        String sql = "SELECT " + TaskRows.CLAIMED_COLUMNS + ", expires_at FROM " + taskTable + " WHERE state IN "
                + States.in(TaskState.PENDING, TaskState.WAITING) + " AND expires_at <= " + now
                + " ORDER BY expires_at LIMIT ?";
        return read(c, sql, limit, false);
    }

    /** Waiting tasks with a condition past its deadline, soonest first. */
    public List<Expiring> dueConditions(Connection c, int limit) throws SQLException {
        String sql = "SELECT t.id, t.kind, t.queue, t.payload, t.attempt, t.max_attempts, t.batch_id, t.has_dependents,"
                + " t.trace_parent, t.trace_state, w.event,"
                + " w.expires_at FROM " + conditionTable + " w JOIN " + taskTable + " t ON t.id = w.task_id"
                + " WHERE w.expires_at <= " + now + " AND t.state = " + States.WAITING
                + " ORDER BY w.expires_at LIMIT ?";
        return read(c, sql, limit, true);
    }

    /**
     * Marks a pending or waiting task failed before it ran (it expired, or its pinned node stayed away),
     * with its error.
     *
     * @return false if it was no longer pending or waiting (it ran, or another node failed it)
     */
    public boolean failBeforeRun(Connection c, long id, AttemptError error) throws SQLException {
        long offsetMicros = offsetMicros();
        try (PreparedStatement statement = c.prepareStatement("UPDATE " + taskTable + " SET state = "
                + States.FAILED + ", finished_at = " + now + ", last_error = ?, errors = "
                + dialect.appendErrorEntry("errors") + " WHERE id = ? AND state IN "
                + States.in(TaskState.PENDING, TaskState.WAITING))) {
            statement.setLong(1, offsetMicros);
            int i = TaskStore.bindError(dialect, statement, 2, error, offsetMicros);
            statement.setLong(i, id);
            return statement.executeUpdate() == 1;
        }
    }

    private List<Expiring> read(Connection c, String sql, int limit, boolean withCondition) throws SQLException {
        long offsetMicros = offsetMicros();
        List<Expiring> due = new ArrayList<>();
        try (PreparedStatement statement = c.prepareStatement(sql)) {
            statement.setLong(1, offsetMicros);
            statement.setInt(2, limit);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    due.add(new Expiring(
                            TaskRows.claimed(rows, 0, 0),
                            dialect.readInstant(rows, "expires_at"),
                            withCondition ? rows.getString("event") : null));
                }
            }
        }
        return due;
    }

    /** The clock's offset in microseconds, read for each statement that means "now". */
    private long offsetMicros() {
        return Micros.of(clock.offset());
    }
}
