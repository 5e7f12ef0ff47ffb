package dev.errand.task;

import dev.errand.retry.Delays;
import java.time.Duration;

/**
 * Thrown by a handler to ask for another attempt after a delay it chooses, instead of the kind's
 * retry policy. It is not an error: while attempts are left nothing is added to the task's error
 * history. The attempt still counts toward the task's maximum; if it was the last one, the task fails
 * with the reason as its error (with {@link #commitWrites()}, the attempt's writes still commit, together
 * with the failure and the kind's failure callback).
 *
 * <p>For a transactional kind the handler also says whether the writes it made in this attempt
 * commit ({@link #commitWrites()}) or roll back (the default). A non-transactional kind has no
 * transaction, so the choice has no effect there.
 */
public final class RetryLater extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final Duration delay;
    private final boolean commitWrites;

    private RetryLater(Duration delay, boolean commitWrites, String reason) {
        super(reason, null, false, false);
        this.delay = delay;
        this.commitWrites = commitWrites;
    }

    /**
     * Asks for the next attempt after {@code delay}; the attempt's writes roll back.
     *
     * @throws IllegalArgumentException if the delay is null, negative or longer than {@link Delays#MAX}
     */
    public static RetryLater after(Duration delay) {
        return after(delay, "retry requested by handler");
    }

    /**
     * Asks for the next attempt after {@code delay}, with a reason; it is recorded on the task only if
     * this was the last attempt.
     *
     * @throws IllegalArgumentException if the delay is null or negative, or the reason is null
     */
    public static RetryLater after(Duration delay, String reason) {
        Delays.require("The delay of RetryLater", delay);
        if (reason == null) {
            throw new IllegalArgumentException("reason must not be null; use RetryLater.after(delay) without one");
        }
        return new RetryLater(delay, false, reason);
    }

    /** Returns a copy that commits the attempt's writes together with the rescheduling. */
    public RetryLater commitWrites() {
        return new RetryLater(delay, true, getMessage());
    }

    /** The delay before the next attempt. */
    public Duration delay() {
        return delay;
    }

    /** Whether the attempt's writes commit (transactional kinds only). */
    public boolean writesCommit() {
        return commitWrites;
    }
}
