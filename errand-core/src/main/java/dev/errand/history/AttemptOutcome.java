package dev.errand.history;

import dev.errand.config.Names;

/** How one attempt of a task ended, as the attempt history records it. */
public enum AttemptOutcome {
    /** The handler returned; the task succeeded. */
    SUCCEEDED("succeeded"),
    /** The attempt failed (the handler threw, asked to retry later, or its worker was lost); a retry follows. */
    RETRIED("retried"),
    /** The attempt failed and the task failed for good. */
    FAILED("failed"),
    /** The handler stopped on an operator's cancel request; the task is cancelled. */
    CANCELLED("cancelled"),
    /** The handler snoozed: the task waits, and the attempt is given back. */
    SNOOZED("snoozed"),
    /** The task's deadline passed before it ran again; it failed as expired without an attempt. */
    EXPIRED("expired"),
    /**
     * The task was pinned to a node that stayed away longer than its kind's pin policy allows; it failed
     * without an attempt.
     */
    NODE_ABSENT("node-absent"),
    /**
     * The infrastructure cut the attempt off (a lost connection, a database shutdown or restart): its
     * transaction rolled back, and the attempt is given back without counting against the maximum.
     */
    INTERRUPTED("interrupted");

    private final String dbValue;

    AttemptOutcome(String dbValue) {
        this.dbValue = dbValue;
    }

    /** The value stored in the {@code outcome} column. */
    public String dbValue() {
        return dbValue;
    }

    /**
     * The outcome stored as {@code value}.
     *
     * @throws IllegalArgumentException if no outcome is stored as it
     */
    public static AttemptOutcome fromDbValue(String value) {
        for (AttemptOutcome outcome : values()) {
            if (outcome.dbValue.equals(value)) {
                return outcome;
            }
        }
        throw new IllegalArgumentException("Unknown attempt outcome " + Names.echo(value));
    }
}
