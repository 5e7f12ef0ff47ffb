package dev.errand.internal.outcome;

import dev.errand.retry.Delays;
import dev.errand.task.LeaseExpiryAction;
import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * Decides what follows an attempt: complete, retry, requeue (lock conflicts, attempts that could not
 * begin, snoozes) or fail. It is the one place that knows
 * whether attempts are left, and it touches no database; the engine writes what it decides.
 */
public final class OutcomePolicy {

    /** After this many lock conflicts in a row, a conflict counts as a failed attempt. */
    public static final int MAX_CONFLICTS_IN_A_ROW = 10;

    /**
     * After this many attempts in a row cut off by the infrastructure on one node, the next one counts
     * against the task's maximum attempts: a bound for a task that itself breaks its connection.
     */
    public static final int MAX_INTERRUPTIONS_IN_A_ROW = 20;

    /** How long a task whose attempt the infrastructure cut off waits before it may be claimed again. */
    public static final Duration INTERRUPTED_PAUSE = Duration.ofSeconds(1);

    /** How long a task whose attempt could not begin waits before it may be claimed again. */
    public static final Duration NOT_STARTED_PAUSE = Duration.ofSeconds(1);

    private static final Duration MIN_CONFLICT_PAUSE = Duration.ofMillis(10);
    private static final Duration MAX_CONFLICT_PAUSE = Duration.ofMillis(200);

    private final DoubleSupplier random;

    /**
     * Creates the policy.
     *
     * @param random uniform values in [0, 1), to spread the pauses after lock conflicts so that the two
     *     sides do not collide again
     */
    public OutcomePolicy(DoubleSupplier random) {
        this.random = random;
    }

    /** Decides what follows {@code ending}. */
    public Decision decide(AttemptFacts facts, Ending ending) {
        if (ending instanceof Ending.Succeeded) {
            return new Decision.Complete();
        }
        if (ending instanceof Ending.LostLockConflict lost && lost.inARow() <= MAX_CONFLICTS_IN_A_ROW) {
            return new Decision.Requeue(conflictPause());
        }
        if (ending instanceof Ending.Interrupted cut && cut.inARow() <= MAX_INTERRUPTIONS_IN_A_ROW) {
            // A lost connection or a restarting server is not the handler's fault: no attempt is spent.
            return new Decision.Requeue(INTERRUPTED_PAUSE);
        }
        if (ending instanceof Ending.Cancelled) {
            return new Decision.Cancel();
        }
        if (ending instanceof Ending.Snoozed snoozed) {
            // A snooze is not a failure: the attempt is given back, however many were used.
            return new Decision.Requeue(capped(snoozed.delay()));
        }
        if (ending instanceof Ending.NotStarted) {
            // Waiting for a connection is the engine's problem, not the task's: no attempt is spent.
            return new Decision.Requeue(NOT_STARTED_PAUSE);
        }
        if (ending instanceof Ending.UnreadablePayload
                || ending instanceof Ending.WorkerLost && facts.onLeaseExpired() == LeaseExpiryAction.FAIL) {
            // Retrying cannot repair a payload, and the kind asked to fail when its worker is lost.
            return new Decision.Fail(ending.cause(facts.node()));
        }
        if (!facts.attemptsLeft()) {
            return new Decision.Fail(ending.cause(facts.node()));
        }
        if (ending instanceof Ending.RetryLaterRequested later) {
            return new Decision.Retry(capped(later.delay()), null);
        }
        Duration delay = ending instanceof Ending.UnknownKind ? facts.unknownKindRetryDelay() : policyDelay(facts);
        return new Decision.Retry(capped(delay), ending.cause(facts.node()));
    }

    private static Duration policyDelay(AttemptFacts facts) {
        // A policy is application code: it may throw or return nonsense, and must not lose the task.
        try {
            return facts.retryPolicy().delayAfter(Math.max(1, facts.attempt()));
        } catch (RuntimeException broken) {
            return Duration.ZERO;
        }
    }

    private static Duration capped(Duration delay) {
        if (delay == null || delay.isNegative()) {
            return Duration.ZERO;
        }
        return delay.compareTo(Delays.MAX) > 0 ? Delays.MAX : delay;
    }

    private Duration conflictPause() {
        long spread = MAX_CONFLICT_PAUSE.toMillis() - MIN_CONFLICT_PAUSE.toMillis();
        return MIN_CONFLICT_PAUSE.plusMillis((long) (random.getAsDouble() * spread));
    }
}
