package dev.errand.batch;

import java.util.Locale;

/** What a batch callback waits for. */
public enum BatchEvent {
    /** Every task of the batch has finished, however it ended. */
    COMPLETE,
    /** Every task of the batch succeeded. */
    SUCCESS,
    /** A task of the batch failed for good; fires once, at the first such failure. */
    FAILURE;

    /** The value stored in the database. */
    public String dbValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
