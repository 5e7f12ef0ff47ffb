package dev.errand.internal.store;

import dev.errand.task.TaskState;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;

/** The one INSERT of a task row and its parameter binding, shared by every inserter. */
final class InsertStatement {

    private final Dialect dialect;
    private final String table;
    private final String sql;

    InsertStatement(Dialect dialect, String table) {
        this.dialect = dialect;
        this.table = table;
        this.sql = "INSERT INTO " + table
                + " (kind, queue, payload, priority, run_at, max_attempts, unique_key, state, expires_at,"
                + " node_id, node_group, trace_parent, trace_state, limit_key)"
                + " VALUES (?, ?, " + dialect.jsonParam() + ", ?, COALESCE(" + dialect.timestampParam() + ", "
                + dialect.timePlusMicros() + "), ?, ?, ?, COALESCE(" + dialect.timestampParam() + ", "
                + dialect.timePlusMicros() + "), ?, ?, ?, ?, ?)";
    }

    /** The table's name. */
    String table() {
        return table;
    }

    /** {@code INSERT INTO <table> (…) VALUES (…)}, with {@link #PARAMETERS} parameters. */
    String sql() {
        return sql;
    }

    /** How many parameters {@link #bind} sets. */
    static final int PARAMETERS = 16;

    /** Binds a task's values from parameter 1. */
    void bind(PreparedStatement statement, NewTask task) throws SQLException {
        statement.setString(1, task.kind());
        statement.setString(2, task.queue());
        statement.setString(3, task.payloadJson());
        statement.setInt(4, task.priority());
        statement.setObject(5, dialect.timestampValue(task.runAt()));
        statement.setLong(6, task.delayMicros());
        statement.setInt(7, task.maxAttempts());
        statement.setString(8, task.uniqueKey());
        // A task with conditions starts waiting; the enqueue releases it if premature events fulfil them all.
        statement.setString(9, (task.gate().conditions().isEmpty() ? TaskState.PENDING : TaskState.WAITING).dbValue());
        statement.setObject(10, dialect.timestampValue(task.gate().expiresAt()));
        if (task.gate().expiresInMicros() == null) {
            statement.setNull(11, Types.BIGINT);
        } else {
            statement.setLong(11, task.gate().expiresInMicros());
        }
        statement.setString(12, task.pin().node());
        statement.setString(13, task.pin().group());
        statement.setString(14, task.trace().traceparent());
        statement.setString(15, task.trace().tracestate());
        statement.setString(16, task.limitKey());
    }
}
