package dev.errand.task;

import dev.errand.config.Names;
import java.util.Locale;

/** The state of a task row. The column {@code state} holds the lower-case name. */
public enum TaskState {
    /** Waiting for its {@code run_at}, or due and waiting for a worker. */
    PENDING,
    /** Waiting on events before it becomes pending. */
    WAITING,
    /** Claimed by a node that holds its lease. */
    RUNNING,
    /** Completed; kept only while retention is on. */
    SUCCEEDED,
    /** Failed after its last attempt, or failed outright; stays until pruned or retried. */
    FAILED,
    /** Cancelled by an operator before it ran. */
    CANCELLED;

    /** The value stored in the {@code state} column. */
    public String dbValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a {@code state} column value.
     *
     * @throws IllegalArgumentException if the value names no state
     */
    public static TaskState fromDbValue(String value) {
        for (TaskState state : values()) {
            if (state.dbValue().equals(value)) {
                return state;
            }
        }
        throw new IllegalArgumentException("Unknown task state " + Names.echo(value) + "; expected one of pending,"
                + " waiting, running, succeeded, failed, cancelled");
    }
}
