package dev.errand.process;

import dev.errand.config.Names;
import java.util.Locale;

/** Where a process is. */
public enum ProcessState {
    /**
     * Its input query is being read on the cluster, a page per transaction, and cut into the batches of its first
     * turn; the batches written so far already run.
     */
    INITIALIZING,
    /** Its batches run, or its last turn is being analysed. */
    RUNNING,
    /** Every batch succeeded and the analysis finished it. */
    SUCCEEDED,
    /** A batch failed more often than the retries allow, or the analysis failed it. */
    FAILED,
    /** An operator cancelled it. */
    CANCELLED;

    /** The value in the {@code state} column. */
    public String dbValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The state of a column value.
     *
     * @throws IllegalArgumentException if the value is not one of {@code initializing}, {@code running},
     *     {@code succeeded}, {@code failed} and {@code cancelled}
     */
    public static ProcessState fromDb(String value) {
        for (ProcessState state : values()) {
            if (state.dbValue().equals(value == null ? null : value.toLowerCase(Locale.ROOT))) {
                return state;
            }
        }
        throw new IllegalArgumentException("Process state " + Names.echo(value)
                + " is not one of initializing, running, succeeded, failed, cancelled");
    }

    /** Whether the process has ended. */
    public boolean isFinal() {
        return this != RUNNING && this != INITIALIZING;
    }
}
