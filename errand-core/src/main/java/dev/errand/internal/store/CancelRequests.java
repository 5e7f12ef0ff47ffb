package dev.errand.internal.store;

import dev.errand.admin.Cancellation;
import dev.errand.spi.DatabaseClock;
import dev.errand.task.TaskState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The SQL of cancellation: an operator cancels a pending or waiting task at once, and asks a running one
 * to stop by a row in the cancel-request table, which the node running it reads. The request is a row of
 * its own because a transactional task's row is locked by its handler's transaction, and the operator
 * must not wait for that.
 */
public final class CancelRequests {

    private final Dialect dialect;
    private final DatabaseClock clock;
    private final String taskTable;
    private final String requestTable;
    private final String cancelWaitingSql;
    private final String cancelRequestedWaitingSql;

    /**
     * Creates the statements.
     *
     * @param dialect the database's dialect
     * @param taskTable the task table's name
     * @param requestTable the cancel-request table's name
     * @param clock the node's clock, whose offset each statement that means "now" reads
     */
    public CancelRequests(Dialect dialect, String taskTable, String requestTable, DatabaseClock clock) {
        this.clock = clock;
        this.dialect = dialect;
        this.taskTable = taskTable;
        this.requestTable = requestTable;
        String now = dialect.timePlusMicros();
        String toCancelled = "UPDATE " + taskTable + " SET state = " + States.CANCELLED + ", finished_at = " + now
                + " WHERE state IN " + States.in(TaskState.PENDING, TaskState.WAITING);
        this.cancelWaitingSql = toCancelled + " AND id = ?";
        this.cancelRequestedWaitingSql = toCancelled + " AND id IN (SELECT task_id FROM " + requestTable + ")";
    }

    /** Cancels a pending or waiting task now, or asks the node running it to stop it. */
    public Cancellation cancel(Connection c, long id) throws SQLException {
        long offsetMicros = offsetMicros();
        String state = state(c, id);
        if (TaskState.PENDING.dbValue().equals(state)
                || TaskState.WAITING.dbValue().equals(state)) {
            try (PreparedStatement statement = c.prepareStatement(cancelWaitingSql)) {
                statement.setLong(1, offsetMicros);
                statement.setLong(2, id);
                if (statement.executeUpdate() == 1) {
                    return Cancellation.CANCELLED;
                }
            }
            // Claimed meanwhile: read it again.
            state = state(c, id);
        }
        if (!TaskState.RUNNING.dbValue().equals(state)) {
            return Cancellation.NOT_CANCELLABLE;
        }
        if (!requested(c, id)) {
            try (PreparedStatement statement =
                    c.prepareStatement("INSERT INTO " + requestTable + " (task_id) VALUES (?)")) {
                statement.setLong(1, id);
                statement.executeUpdate();
            }
        }
        return Cancellation.REQUESTED;
    }

    private String state(Connection c, long id) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement("SELECT state FROM " + taskTable + " WHERE id = ?")) {
            statement.setLong(1, id);
            try (ResultSet row = statement.executeQuery()) {
                return row.next() ? row.getString(1) : null;
            }
        }
    }

    private boolean requested(Connection c, long id) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement("SELECT 1 FROM " + requestTable + " WHERE task_id = ?")) {
            statement.setLong(1, id);
            try (ResultSet row = statement.executeQuery()) {
                return row.next();
            }
        }
    }

    /** Which of these tasks have a cancel request. */
    public Set<Long> requestedAmong(Connection c, long[] ids) throws SQLException {
        Set<Long> requested = new HashSet<>();
        try (PreparedStatement statement = c.prepareStatement(
                "SELECT task_id FROM " + requestTable + " WHERE " + dialect.idIn("task_id", ids.length))) {
            dialect.bindIds(statement, 1, ids);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    requested.add(rows.getLong(1));
                }
            }
        }
        return requested;
    }

    /**
     * Locks the pending and waiting tasks that have a cancel request, in id order: the ones {@link #settle}
     * cancels next, so that what follows their end (their batch, their dependents) can be applied to them.
     */
    public List<Long> lockRequestedUnstarted(Connection c) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (PreparedStatement statement = c.prepareStatement("SELECT id FROM " + taskTable + " WHERE state IN ("
                + States.PENDING + ", " + States.WAITING + ") AND id IN (SELECT task_id FROM " + requestTable
                + ") ORDER BY id FOR UPDATE")) {
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getLong(1));
                }
            }
        }
        return ids;
    }

    /** Deletes a task's request, once honoured. */
    public void forget(Connection c, long id) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement("DELETE FROM " + requestTable + " WHERE task_id = ?")) {
            statement.setLong(1, id);
            statement.executeUpdate();
        }
    }

    /**
     * Honours the requests whose task went back to pending (its attempt ended before its node saw the
     * request), and deletes the requests of tasks that are no longer running.
     *
     * @return how many pending or waiting tasks this cancelled
     */
    public int settle(Connection c) throws SQLException {
        long offsetMicros = offsetMicros();
        int cancelled;
        try (PreparedStatement statement = c.prepareStatement(cancelRequestedWaitingSql)) {
            statement.setLong(1, offsetMicros);
            cancelled = statement.executeUpdate();
        }
        try (PreparedStatement statement = c.prepareStatement("DELETE FROM " + requestTable + " WHERE task_id NOT IN"
                + " (SELECT id FROM " + taskTable + " WHERE state = " + States.RUNNING + ")")) {
            statement.executeUpdate();
        }
        return cancelled;
    }

    /** The clock's offset in microseconds, read for each statement that means "now". */
    private long offsetMicros() {
        return Micros.of(clock.offset());
    }
}
