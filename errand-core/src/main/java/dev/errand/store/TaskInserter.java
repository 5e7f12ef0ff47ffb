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
     * Inserts tasks that have no unique key, in as few round trips as the database allows.
     *
     * @return the new ids, in the order of {@code tasks}
     */
    long[] insertAll(Connection connection, List<NewTask> tasks) throws SQLException;

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
