package dev.errand.internal.outcome;

import dev.errand.retry.RetryPolicy;
import dev.errand.task.LeaseExpiryAction;
import java.time.Duration;

/**
 * What the decision needs to know about a task's attempt and its kind.
 *
 * @param attempt the attempt's number, from 1
 * @param maxAttempts the task's maximum attempts
 * @param retryPolicy the kind's retry policy (the engine's default for an unknown kind)
 * @param onLeaseExpired what the kind does when its worker is lost
 * @param unknownKindRetryDelay the delay before another attempt of a task of an unknown kind
 * @param node this node's id, recorded with errors it decides
 */
public record AttemptFacts(
        int attempt,
        int maxAttempts,
        RetryPolicy retryPolicy,
        LeaseExpiryAction onLeaseExpired,
        Duration unknownKindRetryDelay,
        String node) {

    /** Whether another attempt is allowed after this one. */
    public boolean attemptsLeft() {
        return attempt < maxAttempts;
    }
}
