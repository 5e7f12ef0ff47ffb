package dev.errand.internal.store;

import dev.errand.enqueue.Enqueued;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Inserts with plain JDBC: generated keys for ids, a JDBC batch for many tasks, and a caught unique
 * violation for a duplicate key. Used where a failed statement does not abort the transaction
 * (MariaDB, MySQL, H2).
 */
final class JdbcBatchTaskInserter implements TaskInserter {

    private static final int MAX_CONFLICT_ROUNDS = 200;

    private final Dialect dialect;
    private final InsertStatement insert;
    private final UniqueKeys uniqueKeys;

    JdbcBatchTaskInserter(Dialect dialect, InsertStatement insert, UniqueKeys uniqueKeys) {
        this.dialect = dialect;
        this.insert = insert;
        this.uniqueKeys = uniqueKeys;
    }

    @Override
    public Enqueued insert(Connection connection, NewTask task, String channel) throws SQLException {
        for (int round = 0; round < MAX_CONFLICT_ROUNDS; round++) {
            try (PreparedStatement statement = connection.prepareStatement(insert.sql(), new String[] {"id"})) {
                insert.bind(statement, task);
                statement.executeUpdate();
                long id = generatedIds(statement, 1)[0];
                dialect.notifyOnCommit(connection, channel, task.queue());
                return new Enqueued(id, true);
            } catch (SQLException e) {
                if (task.uniqueKey() == null || !dialect.isUniqueViolation(e)) {
                    throw e;
                }
            }
            long holder = uniqueKeys.activeHolder(connection, task.uniqueKey());
            if (holder >= 0) {
                return new Enqueued(holder, false);
            }
            // The holder is not committed yet (or just finished): give its transaction a moment.
            pause();
        }
        throw new SQLException("Unique key '" + task.uniqueKey() + "' stayed held by an uncommitted task during "
                + MAX_CONFLICT_ROUNDS + " insert attempts");
    }

    @Override
    public long[] insertAll(Connection connection, List<NewTask> tasks, String channel) throws SQLException {
        long[] ids;
        try (PreparedStatement statement = connection.prepareStatement(insert.sql(), new String[] {"id"})) {
            for (NewTask task : tasks) {
                insert.bind(statement, task);
                statement.addBatch();
            }
            statement.executeBatch();
            ids = generatedIds(statement, tasks.size());
        }
        Set<String> queues = new LinkedHashSet<>();
        tasks.forEach(task -> queues.add(task.queue()));
        for (String queue : queues) {
            dialect.notifyOnCommit(connection, channel, queue);
        }
        return ids;
    }

    @Override
    public List<Enqueued> insertAllKeyed(Connection connection, List<NewTask> tasks, String channel)
            throws SQLException {
        return Jdbc.atomically(connection, c -> {
            Savepoint beforeBatch = c.setSavepoint();
            long[] ids;
            try {
                ids = insertAll(c, tasks, channel);
            } catch (SQLException e) {
                if (!causedByUniqueViolation(e)) {
                    throw e;
                }
                // Some key is held: undo the rows the batch wrote, and let the one-row path sort out each key.
                c.rollback(beforeBatch);
                List<Enqueued> enqueued = new ArrayList<>(tasks.size());
                for (NewTask task : tasks) {
                    enqueued.add(insert(c, task, channel));
                }
                return enqueued;
            }
            c.releaseSavepoint(beforeBatch);
            List<Enqueued> enqueued = new ArrayList<>(ids.length);
            for (long id : ids) {
                enqueued.add(new Enqueued(id, true));
            }
            return enqueued;
        });
    }

    /** Whether a batch failed on a unique key: drivers report it on the batch error, its cause or a next one. */
    private boolean causedByUniqueViolation(SQLException failure) {
        for (Throwable e = failure; e != null; e = e.getCause()) {
            if (e instanceof SQLException sql) {
                for (SQLException next = sql; next != null; next = next.getNextException()) {
                    if (dialect.isUniqueViolation(next)) {
                        return true;
                    }
                }
            }
        }
        return false;
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
