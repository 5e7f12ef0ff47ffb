package dev.errand.internal.store;

import dev.errand.enqueue.Enqueued;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * Inserts task rows on the caller's connection, so that they join the caller's transaction, and sends
 * each queue's wake-up where the database delivers notifications on commit. Each dialect supplies its
 * own ({@link Dialect#inserter}).
 */
public interface TaskInserter {

    /**
     * Inserts one task and sends its queue's wake-up on {@code channel}. If it has a unique key that an
     * active task already holds, nothing is written and no wake-up is sent.
     *
     * @return the new task, or the active task that holds the same unique key
     */
    Enqueued insert(Connection connection, NewTask task, String channel) throws SQLException;

    /**
     * Inserts tasks that have no unique key in as few round trips as the database allows, and sends
     * each of their queues' wake-up on {@code channel}.
     *
     * @return the new ids, in the order of {@code tasks}
     */
    long[] insertAll(Connection connection, List<NewTask> tasks, String channel) throws SQLException;

    /**
     * Inserts tasks that each have a unique key and no conditions or deadline, in as few round trips as
     * the database allows, and sends their queues' wake-ups on {@code channel}. A task whose key an active
     * task holds is not written, as with {@link #insert}.
     *
     * @return per task, in the order of {@code tasks}: the new task, or the active task that holds its key
     */
    List<Enqueued> insertAllKeyed(Connection connection, List<NewTask> tasks, String channel) throws SQLException;
}
