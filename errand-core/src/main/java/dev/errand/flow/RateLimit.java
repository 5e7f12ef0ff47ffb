package dev.errand.flow;

import java.time.Duration;

/**
 * A rate limit: at most {@code starts} tasks of a kind start in any window of {@code period}, across the
 * cluster, on the database clock. See docs/FLOW-CONTROL.md for the algorithm and its accuracy.
 *
 * @param starts the most starts per period, 1 to {@value FlowLimits#MAX_CONCURRENCY_LIMIT}
 * @param period the window, 1 ms to 24 h
 */
public record RateLimit(int starts, Duration period) {

    /** The longest period. */
    public static final Duration MAX_PERIOD = Duration.ofHours(24);

    /**
     * Checks the limit.
     *
     * @throws IllegalArgumentException if {@code starts} is outside 1 to 10,000, or {@code period} is null, shorter
     *     than 1 ms or longer than 24 h
     */
    public RateLimit {
        FlowLimits.requireConcurrencyLimit(starts, "The starts of a rate limit");
        if (period == null || period.compareTo(Duration.ofMillis(1)) < 0 || period.compareTo(MAX_PERIOD) > 0) {
            throw new IllegalArgumentException("The period of a rate limit must be between 1 ms and 24 h, got " + period
                    + "; for example RateLimit(100, Duration.ofMinutes(1)) for 100 starts a minute");
        }
        if (period.toNanos() % 1_000_000 != 0) {
            throw new IllegalArgumentException(
                    "The period of a rate limit is counted in whole milliseconds, got " + period);
        }
    }
}
