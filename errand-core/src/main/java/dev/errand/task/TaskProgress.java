package dev.errand.task;

import java.time.Instant;

/**
 * How far a running task says it is, as its handler last reported it with {@link TaskContext#progress}:
 * {@code done} of {@code total} units, with an optional message. Read it with {@code TaskAdmin.progress(id)};
 * it exists only while the attempt that reported it runs.
 *
 * @param done units done, 0 to {@code total}
 * @param total units in all, at least 1
 * @param message what the handler is doing, up to {@value #MAX_MESSAGE_LENGTH} characters, or {@code null}
 * @param attempt the attempt that reported it
 * @param updatedAt when it was written, on the database clock
 */
public record TaskProgress(long done, long total, String message, int attempt, Instant updatedAt) {

    /** The longest message. */
    public static final int MAX_MESSAGE_LENGTH = 500;

    /** Checks the values; see {@link #check}. */
    public TaskProgress {
        check(done, total, message);
    }

    /** The share done, from 0.0 to 1.0. */
    public double fraction() {
        return (double) done / total;
    }

    /** Whether {@code done} reached {@code total}. */
    public boolean complete() {
        return done == total;
    }

    /**
     * Checks a report of progress.
     *
     * @throws IllegalArgumentException if {@code total} is below 1, {@code done} is negative or above {@code
     *     total}, or the message is longer than {@value #MAX_MESSAGE_LENGTH} characters
     */
    public static void check(long done, long total, String message) {
        if (total < 1) {
            throw new IllegalArgumentException("progress total must be at least 1, got " + total
                    + "; report the units of work in all (for example rows to import)");
        }
        if (done < 0 || done > total) {
            throw new IllegalArgumentException(
                    "progress done must be between 0 and total (" + total + "), got " + done);
        }
        if (message != null && message.length() > MAX_MESSAGE_LENGTH) {
            throw new IllegalArgumentException("progress message must be at most " + MAX_MESSAGE_LENGTH
                    + " characters, got " + message.length() + "; shorten it");
        }
    }
}
