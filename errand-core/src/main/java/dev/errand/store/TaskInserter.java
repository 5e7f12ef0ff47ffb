package dev.errand.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;

/** Inserts task rows on the caller's connection, so that they join the caller's transaction. */
public interface TaskInserter {

    /**
     * Inserts one task. If it has a unique key that an active task already holds, nothing is written.
     *
     * @return the new task's id, or the id of the active task that holds the same unique key
     */
    long insert(Connection connection, NewTask task) throws SQLException;

    /**
     * Inserts one task and sends its queue's wake-up on {@code channel}, delivered when the transaction
     * commits (where the dialect has database notifications). PostgreSQL does both in one statement. A
     * task whose unique key is already held inserts nothing and sends no wake-up.
     *
     * @return as {@link #insert}
     */
    default long insertAndNotify(Connection connection, NewTask task, Dialect dialect, String channel)
            throws SQLException {
        long id = insert(connection, task);
        dialect.notifyOnCommit(connection, channel, task.queue());
        return id;
    }

    /**
     * Inserts tasks that have no unique key, in as few round trips as the database allows.
     *
     * @return the new ids, in the order of {@code tasks}
     */
    long[] insertAll(Connection connection, List<NewTask> tasks) throws SQLException;

    /**
     * Inserts tasks that have no unique key, as {@link #insertAll}, and sends each of their queues'
     * wake-up on {@code channel}, delivered on commit. PostgreSQL does both in one statement.
     */
    default long[] insertAllAndNotify(Connection connection, List<NewTask> tasks, Dialect dialect, String channel)
            throws SQLException {
        long[] ids = insertAll(connection, tasks);
        java.util.Set<String> queues = new java.util.LinkedHashSet<>();
        tasks.forEach(task -> queues.add(task.queue()));
        for (String queue : queues) {
            dialect.notifyOnCommit(connection, channel, queue);
        }
        return ids;
    }

    /**
     * Creates the inserter that fits a dialect.
     *
     * @param dataSource for unique-key lookups outside the caller's snapshot
     */
    static TaskInserter forDialect(Dialect dialect, String table, DataSource dataSource) {
        UniqueKeys uniqueKeys = new UniqueKeys(table, dataSource);
        return dialect instanceof PostgresDialect
                ? new PostgresTaskInserter(dialect, table, uniqueKeys)
                : new JdbcBatchTaskInserter(dialect, table, uniqueKeys);
    }
}
