package dev.errand.task;

import java.sql.Connection;

/**
 * Runs once when a task of a kind fails for good. It runs in its own transaction, the same one that
 * marks the task failed: its writes on {@code connection} commit with that, exactly once. If the
 * callback throws (an {@link Error} included), that transaction rolls back, the task is still marked
 * failed, and the callback's error is appended to the task's {@code last_error}. The callback is not
 * called again.
 *
 * @param <P> the payload type of the kind
 */
@FunctionalInterface
public interface FailureCallback<P> {

    /**
     * Reacts to the failure.
     *
     * @param task the failed task, with its decoded payload and why it failed
     * @param connection the connection of the transaction that marks the task failed; do not commit,
     *     roll back or close it
     * @throws Exception any failure; recorded on the task
     */
    void onFailure(FailedTask<P> task, Connection connection) throws Exception;
}
