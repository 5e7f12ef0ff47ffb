package dev.errand.process;

import java.util.Locale;

/** Where a process is. */
public enum ProcessState {
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

    /** The state of a column value. */
    public static ProcessState fromDb(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }

    /** Whether the process has ended. */
    public boolean isFinal() {
        return this != RUNNING;
    }
}
