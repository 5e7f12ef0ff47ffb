package dev.errand.task;

import dev.errand.retry.Delays;
import java.time.Duration;

/**
 * Thrown by a handler to put its task back for a while <em>without spending an attempt</em>: the task
 * is not failing, it is not ready yet (a rate limit, a resource still being prepared, business hours).
 * Nothing is added to the error history, the attempt number goes back to what it was before this
 * attempt, and the task may be claimed again after the delay, on any node.
 *
 * <p>Compare {@link RetryLater}, which spends the attempt and so ends in failure once the task's
 * maximum attempts are used. A task that snoozes for ever never fails: bound it yourself, for example
 * by reading {@link TaskContext#attempt()} or a count in your own data.
 *
 * <p>For a transactional kind the attempt's writes roll back: a snoozed attempt leaves no trace.
 */
public final class Snooze extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final Duration delay;

    private Snooze(Duration delay) {
        super("snoozed for " + delay, null, false, false);
        this.delay = delay;
    }

    /**
     * Puts the task back for {@code delay}, keeping its attempt.
     *
     * @throws IllegalArgumentException if the delay is null, negative or longer than {@link Delays#MAX}
     */
    public static Snooze by(Duration delay) {
        return new Snooze(Delays.require("The delay of Snooze", delay));
    }

    /** How long the task waits before it may be claimed again. */
    public Duration delay() {
        return delay;
    }
}
