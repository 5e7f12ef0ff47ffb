package dev.errand.internal.store;

import java.sql.PreparedStatement;
import java.sql.SQLException;

/** The one INSERT of a task row and its parameter binding, shared by every inserter. */
final class InsertStatement {

    private final Dialect dialect;
    private final String table;
    private final String sql;

    InsertStatement(Dialect dialect, String table) {
        this.dialect = dialect;
        this.table = table;
        this.sql = "INSERT INTO " + table + " (kind, queue, payload, priority, run_at, max_attempts, unique_key)"
                + " VALUES (?, ?, " + dialect.jsonParam() + ", ?, COALESCE(" + dialect.timestampParam() + ", "
                + dialect.timePlusMicros() + "), ?, ?)";
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
    static final int PARAMETERS = 8;

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
    }
}
