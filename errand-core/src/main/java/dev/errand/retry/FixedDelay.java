package dev.errand.retry;

import java.time.Duration;

/** Waits the same delay after every failed attempt. */
public record FixedDelay(Duration delay) implements RetryPolicy {

    /**
     * Creates the policy.
     *
     * @throws IllegalArgumentException if the delay is null or negative
     */
    public FixedDelay {
        Durations.requireNotNegative(delay, "Fixed retry delay");
    }

    @Override
    public Duration delayAfter(int failedAttempt) {
        Durations.requireAttempt(failedAttempt);
        return delay;
    }
}
