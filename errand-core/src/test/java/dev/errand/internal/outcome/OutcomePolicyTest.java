package dev.errand.internal.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.retry.Delays;
import dev.errand.retry.RetryPolicy;
import dev.errand.task.FailureCause;
import dev.errand.task.LeaseExpiryAction;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The one decision of what follows an attempt, without a database. */
class OutcomePolicyTest {

    private final OutcomePolicy policy = new OutcomePolicy(() -> 0.5);
    private static final RetryPolicy TEN_SECONDS = RetryPolicy.fixed(Duration.ofSeconds(10));

    private static AttemptFacts attempt(int attempt, int max) {
        return new AttemptFacts(attempt, max, TEN_SECONDS, LeaseExpiryAction.RETRY, Duration.ofMinutes(1), "node-a");
    }

    @Test
    void successCompletes() {
        assertThat(policy.decide(attempt(1, 3), new Ending.Succeeded())).isEqualTo(new Decision.Complete());
    }

    @Test
    void aThrowingHandlerIsRetriedByItsPolicyWhileAttemptsAreLeft() {
        IllegalStateException boom = new IllegalStateException("boom");
        Decision decision = policy.decide(attempt(2, 3), new Ending.Threw(boom));
        assertThat(decision).isInstanceOf(Decision.Retry.class);
        Decision.Retry retry = (Decision.Retry) decision;
        assertThat(retry.delay()).isEqualTo(Duration.ofSeconds(10));
        assertThat(retry.error())
                .isEqualTo(new FailureCause.HandlerFailed(IllegalStateException.class.getName(), "boom", boom));
    }

    @Test
    void theLastAttemptFailsForGoodWithTheHandlersCause() {
        Decision decision = policy.decide(attempt(3, 3), new Ending.Threw(new StackOverflowError()));
        assertThat(decision).isInstanceOf(Decision.Fail.class);
        assertThat(((Decision.Fail) decision).cause())
                .isInstanceOfSatisfying(FailureCause.HandlerFailed.class, cause -> assertThat(cause.exceptionType())
                        .isEqualTo(StackOverflowError.class.getName()));
    }

    @Test
    void retryLaterUsesTheHandlersDelayAndRecordsNoErrorButFailsOnTheLastAttempt() {
        Ending later = new Ending.RetryLaterRequested(Duration.ofMinutes(5), "partner busy");
        assertThat(policy.decide(attempt(1, 3), later)).isEqualTo(new Decision.Retry(Duration.ofMinutes(5), null));
        assertThat(policy.decide(attempt(3, 3), later))
                .isEqualTo(new Decision.Fail(new FailureCause.RetriesExhausted("partner busy")));
    }

    @Test
    void anUnreadablePayloadFailsAtOnceWhateverAttemptsAreLeft() {
        assertThat(policy.decide(attempt(1, 10), new Ending.UnreadablePayload("bad json")))
                .isEqualTo(new Decision.Fail(new FailureCause.UnreadablePayload("bad json")));
    }

    @Test
    void aLostWorkerIsRetriedOrFailedAsTheKindSays() {
        Ending lost = new Ending.WorkerLost("node-b");
        assertThat(policy.decide(attempt(1, 3), lost))
                .isEqualTo(new Decision.Retry(Duration.ofSeconds(10), new FailureCause.WorkerLost("node-b")));
        AttemptFacts failFast = new AttemptFacts(1, 3, TEN_SECONDS, LeaseExpiryAction.FAIL, Duration.ZERO, "node-a");
        assertThat(policy.decide(failFast, lost)).isEqualTo(new Decision.Fail(new FailureCause.WorkerLost("node-b")));
        assertThat(policy.decide(attempt(3, 3), lost))
                .isEqualTo(new Decision.Fail(new FailureCause.WorkerLost("node-b")));
    }

    @Test
    void anUnknownKindWaitsForADeployAndFailsWhenItsAttemptsRunOut() {
        Ending unknown = new Ending.UnknownKind("new-kind", "default");
        FailureCause cause = new FailureCause.UnknownKind("new-kind", "default", "node-a");
        assertThat(policy.decide(attempt(1, 2), unknown)).isEqualTo(new Decision.Retry(Duration.ofMinutes(1), cause));
        assertThat(policy.decide(attempt(2, 2), unknown)).isEqualTo(new Decision.Fail(cause));
    }

    @Test
    void lockConflictsRequeueUncountedUntilTheyNeverEnd() {
        Ending conflict = new Ending.LostLockConflict(new RuntimeException("deadlock"), 3);
        Decision decision = policy.decide(attempt(3, 3), conflict);
        assertThat(decision).isInstanceOf(Decision.Requeue.class);
        assertThat(((Decision.Requeue) decision).delay()).isBetween(Duration.ofMillis(10), Duration.ofMillis(200));
        Ending endless =
                new Ending.LostLockConflict(new RuntimeException("deadlock"), OutcomePolicy.MAX_CONFLICTS_IN_A_ROW + 1);
        assertThat(policy.decide(attempt(1, 3), endless)).isInstanceOf(Decision.Retry.class);
        assertThat(policy.decide(attempt(3, 3), endless)).isInstanceOf(Decision.Fail.class);
    }

    @Test
    void anInterruptedAttemptIsGivenBackUntilItsBoundThenCounts() {
        Ending cut = new Ending.Interrupted(new java.sql.SQLException("terminating connection", "57P01"), 1);
        assertThat(policy.decide(attempt(1, 1), cut)).isEqualTo(new Decision.Requeue(OutcomePolicy.INTERRUPTED_PAUSE));
        Ending endless = new Ending.Interrupted(
                new java.sql.SQLException("terminating connection", "57P01"),
                OutcomePolicy.MAX_INTERRUPTIONS_IN_A_ROW + 1);
        assertThat(policy.decide(attempt(1, 3), endless)).isInstanceOf(Decision.Retry.class);
        Decision last = policy.decide(attempt(1, 1), endless);
        assertThat(last).isInstanceOf(Decision.Fail.class);
        assertThat(((Decision.Fail) last).cause().describe()).contains("terminating connection");
    }

    @Test
    void anAttemptThatNeverBeganIsRequeuedWithoutSpendingAnAttempt() {
        Ending noConnection = new Ending.NotStarted(new RuntimeException("Connection is not available"));
        assertThat(policy.decide(attempt(5, 5), noConnection))
                .isEqualTo(new Decision.Requeue(OutcomePolicy.NOT_STARTED_PAUSE));
    }

    @Test
    void aBrokenOrHugeRetryPolicyCannotLoseOrDelayATaskForever() {
        RetryPolicy huge = failed -> Duration.ofDays(1_000_000);
        RetryPolicy throwing = failed -> {
            throw new IllegalStateException("bad policy");
        };
        RetryPolicy nothing = failed -> null;
        for (RetryPolicy broken : new RetryPolicy[] {huge, throwing, nothing}) {
            AttemptFacts facts = new AttemptFacts(1, 3, broken, LeaseExpiryAction.RETRY, Duration.ZERO, "n");
            Decision decision = policy.decide(facts, new Ending.Threw(new RuntimeException("x")));
            assertThat(decision).isInstanceOf(Decision.Retry.class);
            assertThat(((Decision.Retry) decision).delay()).isBetween(Duration.ZERO, Delays.MAX);
        }
    }

    @Test
    void aMessageThatCannotBeReadStillGivesACause() {
        RuntimeException hostile = new RuntimeException() {
            @Override
            public String getMessage() {
                throw new IllegalStateException("no message for you");
            }
        };
        Decision decision = policy.decide(attempt(1, 1), new Ending.Threw(hostile));
        assertThat(((Decision.Fail) decision).cause().describe()).contains("could not be read");
    }
}
