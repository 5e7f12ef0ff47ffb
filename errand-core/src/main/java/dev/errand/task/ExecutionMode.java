package dev.errand.task;

/** How a kind's handler runs relative to the transaction that completes the task. */
public enum ExecutionMode {

    /**
     * The handler runs inside the transaction that locks and completes the task, on the connection
     * from {@link TaskContext#connection()}. Its database writes and the completion commit together:
     * an exactly-once effect on the database.
     */
    TRANSACTIONAL,

    /**
     * The handler runs outside any transaction while the node holds a lease that heartbeats extend.
     * Use it for calls to the outside world. A crash means another attempt: at least once.
     */
    NON_TRANSACTIONAL
}
