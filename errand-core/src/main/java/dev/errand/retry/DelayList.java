package dev.errand.retry;

import java.time.Duration;
import java.util.List;

/** Waits the n-th listed delay after attempt n, and the last listed delay after every later one. */
public record DelayList(List<Duration> delays) implements RetryPolicy {

    /**
     * Creates the policy.
     *
     * @throws IllegalArgumentException if the list is null, empty, or holds a null or negative delay
     */
    public DelayList {
        if (delays == null || delays.isEmpty()) {
            throw new IllegalArgumentException("A delay list needs at least one delay, for example"
                    + " RetryPolicy.delays(Duration.ofSeconds(10), Duration.ofSeconds(30))");
        }
        for (Duration delay : delays) {
            Delays.require("Each retry delay", delay);
        }
        delays = List.copyOf(delays);
    }

    /**
     * How many attempts the list covers: one, then one more after each delay. A kind with this policy
     * and no maximum of its own gets this many attempts.
     */
    public int attemptsCovered() {
        return Math.min(delays.size() + 1, 1_000);
    }

    @Override
    public Duration delayAfter(int failedAttempt) {
        Delays.requireAttempt(failedAttempt);
        return delays.get(Math.min(failedAttempt, delays.size()) - 1);
    }
}
