package dev.errand.retry;

import java.time.Duration;
import java.util.Arrays;

/**
 * Chooses the delay before the next attempt after a failed one. Policies are immutable and
 * thread-safe. How many attempts a task gets is set separately, by its {@code max_attempts}.
 */
@FunctionalInterface
public interface RetryPolicy {

    /**
     * The delay before the attempt that follows {@code failedAttempt}. The engine caps what it gets at
     * {@link Delays#MAX}.
     *
     * @param failedAttempt the number of the attempt that just failed, starting at 1
     * @return a delay of zero or more
     */
    Duration delayAfter(int failedAttempt);

    /**
     * The same delay after every failure.
     *
     * @throws IllegalArgumentException if the delay is null, negative, or longer than {@link Delays#MAX}
     */
    static RetryPolicy fixed(Duration delay) {
        return new FixedDelay(delay);
    }

    /**
     * Delays that double from {@code initial} up to {@code cap}, each varied by ±20% jitter so that
     * tasks that failed together do not retry together. See {@link ExponentialBackoff} to change the
     * factor or the jitter.
     *
     * @throws IllegalArgumentException if a duration is null, not positive, or the cap is below the
     *     initial delay
     */
    static ExponentialBackoff exponential(Duration initial, Duration cap) {
        return ExponentialBackoff.of(initial, cap);
    }

    /**
     * An explicit list of delays: the first after attempt 1, the second after attempt 2, and the last
     * one again for every later attempt. For example {@code delays(10s, 20s, 30s)}. A kind with this
     * policy and no maximum attempts of its own gets one attempt more than the list has delays (4 here).
     *
     * @throws IllegalArgumentException if the list is empty or holds a null, negative or too long delay
     */
    static DelayList delays(Duration... delays) {
        // Arrays.asList, not List.of: a null element must reach DelayList's check, not throw a bare NPE.
        return new DelayList(delays == null ? null : Arrays.asList(delays));
    }
}
