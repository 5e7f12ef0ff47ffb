package dev.errand.node;

import dev.errand.config.Settings;
import dev.errand.retry.DelayList;
import dev.errand.retry.ExponentialBackoff;
import dev.errand.retry.FixedDelay;
import dev.errand.retry.RetryPolicy;
import java.time.Duration;

/**
 * A run-time change of a kind's settings on every node; unset values stay as they are. A value set here takes the
 * place of the kind's definition (and of the node defaults) until {@link ClusterAdmin#resetKind(String)}:
 *
 * <ul>
 *   <li>{@code maxAttempts} applies to tasks enqueued from then on without a maximum of their own; a task already
 *       queued keeps the maximum it was enqueued with;
 *   <li>{@code retryPolicy} decides the delay after each failed attempt from then on;
 *   <li>{@code executionTimeout} applies to attempts that start from then on.
 * </ul>
 *
 * @param maxAttempts the most attempts, 1 to 1,000, or null
 * @param retryPolicy one of the built-in policies ({@link RetryPolicy#fixed}, {@link RetryPolicy#exponential},
 *     {@link RetryPolicy#delays}), which can be stored, or null
 * @param executionTimeout the longest an attempt may run, or null
 */
public record KindChange(Integer maxAttempts, RetryPolicy retryPolicy, Duration executionTimeout) {

    /**
     * Checks the values.
     *
     * @throws IllegalArgumentException if nothing is set, a value is out of its setting's range, or the retry policy
     *     is not a built-in one
     */
    public KindChange {
        if (maxAttempts == null && retryPolicy == null && executionTimeout == null) {
            throw new IllegalArgumentException(
                    "A kind change must set at least one of maxAttempts, retryPolicy, executionTimeout");
        }
        if (maxAttempts != null) {
            Settings.MAX_ATTEMPTS.require(maxAttempts);
        }
        if (retryPolicy != null
                && !(retryPolicy instanceof FixedDelay
                        || retryPolicy instanceof DelayList
                        || retryPolicy instanceof ExponentialBackoff)) {
            throw new IllegalArgumentException("Only the built-in retry policies can be set at run time, since the"
                    + " cluster stores them: use RetryPolicy.fixed, RetryPolicy.exponential or RetryPolicy.delays;"
                    + " got " + retryPolicy.getClass().getName());
        }
        if (executionTimeout != null) {
            Settings.EXECUTION_TIMEOUT.require(executionTimeout);
        }
    }

    /** A change of the maximum attempts only. */
    public static KindChange maxAttempts(int maxAttempts) {
        return new KindChange(maxAttempts, null, null);
    }

    /** A change of the retry policy only. */
    public static KindChange retryPolicy(RetryPolicy policy) {
        if (policy == null) {
            throw new IllegalArgumentException("policy must not be null; use RetryPolicy.fixed(delay) and friends");
        }
        return new KindChange(null, policy, null);
    }

    /** A change of the execution timeout only. */
    public static KindChange executionTimeout(Duration timeout) {
        if (timeout == null) {
            throw new IllegalArgumentException("timeout must not be null; for example Duration.ofMinutes(5)");
        }
        return new KindChange(null, null, timeout);
    }
}
