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
        Delays.require("Fixed retry delay", delay);
    }

    @Override
    public Duration delayAfter(int failedAttempt) {
        Delays.requireAttempt(failedAttempt);
        return delay;
    }
}
