package dev.errand.admin;

/** What {@link TaskAdmin#requestCancel(long)} did. */
public enum Cancellation {
    /** The task was pending or waiting, and is cancelled now. */
    CANCELLED,
    /**
     * The task is running: its handler sees {@code TaskContext.isCancelled()} and its thread is interrupted
     * within a heartbeat interval. If the handler stops, the task ends {@code cancelled}; if it returns
     * normally, the task completes. If the attempt ends otherwise first (a retry), the task is cancelled
     * while it waits.
     */
    REQUESTED,
    /** The task is finished or gone: nothing to cancel. */
    NOT_CANCELLABLE
}
