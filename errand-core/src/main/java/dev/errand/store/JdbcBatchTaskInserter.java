package dev.errand.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Inserts with plain JDBC: generated keys for ids, a JDBC batch for many tasks, and a caught unique
 * violation for a duplicate key. Used where a failed statement does not abort the transaction.
 */
final class JdbcBatchTaskInserter implements TaskInserter {

    private static final int MAX_CONFLICT_ROUNDS = 200;

    private final Dialect dialect;
    private final String insertSql;
    private final UniqueKeys uniqueKeys;

    JdbcBatchTaskInserter(Dialect dialect, String table, UniqueKeys uniqueKeys) {
        this.dialect = dialect;
        this.insertSql = "INSERT INTO " + table
                + " (kind, queue, payload, priority, run_at, max_attempts, unique_key) VALUES (?, ?, "
                + dialect.jsonParam() + ", ?, COALESCE(" + dialect.timestampParam() + ", "
                + dialect.timePlusMicros() + "), ?, ?)";
        this.uniqueKeys = uniqueKeys;
    }

    @Override
    public long insert(Connection connection, NewTask task) throws SQLException {
        for (int round = 0; round < MAX_CONFLICT_ROUNDS; round++) {
            try (PreparedStatement statement = connection.prepareStatement(insertSql, new String[] {"id"})) {
                bind(statement, task);
                statement.executeUpdate();
                return generatedIds(statement, 1)[0];
            } catch (SQLException e) {
                if (task.uniqueKey() == null || !dialect.isUniqueViolation(e)) {
                    throw e;
                }
            }
            long holder = uniqueKeys.activeHolder(connection, task.uniqueKey());
            if (holder >= 0) {
                return holder;
            }
            // The holder is not committed yet (or just finished): give its transaction a moment.
            pause();
        }
        throw new SQLException("Unique key '" + task.uniqueKey() + "' stayed held by an uncommitted task during "
                + MAX_CONFLICT_ROUNDS + " insert attempts");
    }

    @Override
    public long[] insertAll(Connection connection, List<NewTask> tasks) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(insertSql, new String[] {"id"})) {
            for (NewTask task : tasks) {
                bind(statement, task);
                statement.addBatch();
            }
            statement.executeBatch();
            return generatedIds(statement, tasks.size());
        }
    }

    private void bind(PreparedStatement statement, NewTask task) throws SQLException {
        statement.setString(1, task.kind());
        statement.setString(2, task.queue());
        statement.setString(3, task.payloadJson());
        statement.setInt(4, task.priority());
        statement.setObject(5, dialect.timestampValue(task.runAt()));
        statement.setLong(6, task.delayMicros());
        statement.setInt(7, task.maxAttempts());
        statement.setString(8, task.uniqueKey());
    }

    private static long[] generatedIds(Statement statement, int expected) throws SQLException {
        long[] ids = new long[expected];
        int i = 0;
        try (ResultSet keys = statement.getGeneratedKeys()) {
            while (keys.next() && i < expected) {
                ids[i++] = keys.getLong(1);
            }
        }
        if (i != expected) {
            throw new SQLException("The database returned " + i + " generated ids for " + expected + " tasks");
        }
        return ids;
    }

    private static void pause() throws SQLException {
        try {
            Thread.sleep(5);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("Interrupted while waiting for a unique key's holder to commit", e);
        }
    }
}
