package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.retry.RetryPolicy;
import dev.errand.task.ExecutionMode;
import dev.errand.task.RetryLater;
import dev.errand.task.Task;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/** Retry policies, maximum attempts, retry-later, and the failure callback, on a real database. */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#claiming")
class RetryContractTest extends ErrandTestSupport {

    RetryContractTest(Target target) {
        super(target);
    }

    private static TaskDefinition.Builder<Integer> alwaysFailing(String kind) {
        return TaskDefinition.builder(kind, Integer.class, (n, ctx) -> {
            throw new IllegalStateException("attempt " + ctx.attempt() + " failed");
        });
    }

    /** Waits until the task is pending again after {@code attempt}, and returns its delay from now. */
    private Duration awaitRetryDelay(Errand errand, long id, int attempt) throws Exception {
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            Task task = task(errand, id);
            return task.attempt() == attempt && task.state() == TaskState.PENDING;
        });
        Instant shiftedNow = databaseNow().plus(clock.offset());
        return Duration.between(shiftedNow, task(errand, id).runAt());
    }

    @Test
    void fixedDelayRetriesUntilMaxAttemptsThenFails() throws Exception {
        Errand errand = node(builder()
                .register(alwaysFailing("fixed")
                        .retryPolicy(RetryPolicy.fixed(Duration.ofMinutes(5)))
                        .maxAttempts(3)
                        .build()));
        long id = errand.enqueue(TaskRequest.of("fixed", 1)).id();
        errand.start();
        for (int attempt = 1; attempt <= 2; attempt++) {
            Duration delay = awaitRetryDelay(errand, id, attempt);
            assertThat(delay).isBetween(Duration.ofMinutes(5).minusSeconds(10), Duration.ofMinutes(5));
            clock.advance(Duration.ofMinutes(6));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> task(errand, id).state() == TaskState.FAILED);
        Task failed = task(errand, id);
        assertThat(failed.attempt()).isEqualTo(3);
        assertThat(errorAttempts(failed)).containsExactly(1, 2, 3);
        assertThat(failed.lastError()).contains("attempt 3 failed");
    }

    @Test
    void exponentialBackoffGrowsAndIsCapped() throws Exception {
        Errand errand = node(builder()
                .register(alwaysFailing("expo")
                        .retryPolicy(RetryPolicy.exponential(Duration.ofMinutes(1), Duration.ofMinutes(3))
                                .withJitter(0.0))
                        .maxAttempts(4)
                        .build()));
        long id = errand.enqueue(TaskRequest.of("expo", 1)).id();
        errand.start();
        Duration[] expected = {Duration.ofMinutes(1), Duration.ofMinutes(2), Duration.ofMinutes(3)};
        for (int attempt = 1; attempt <= 3; attempt++) {
            Duration delay = awaitRetryDelay(errand, id, attempt);
            assertThat(delay)
                    .as("delay after attempt %d", attempt)
                    .isBetween(expected[attempt - 1].minusSeconds(10), expected[attempt - 1]);
            clock.advance(Duration.ofMinutes(4));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> task(errand, id).state() == TaskState.FAILED);
    }

    @Test
    void explicitDelayListIsFollowedAndItsLastDelayRepeats() throws Exception {
        Errand errand = node(builder()
                .register(alwaysFailing("listed")
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .retryPolicy(RetryPolicy.delays(
                                Duration.ofSeconds(10), Duration.ofSeconds(20), Duration.ofSeconds(30)))
                        .maxAttempts(5)
                        .build()));
        long id = errand.enqueue(TaskRequest.of("listed", 1)).id();
        errand.start();
        long[] expectedSeconds = {10, 20, 30, 30};
        for (int attempt = 1; attempt <= 4; attempt++) {
            Duration delay = awaitRetryDelay(errand, id, attempt);
            Duration want = Duration.ofSeconds(expectedSeconds[attempt - 1]);
            assertThat(delay).as("delay after attempt %d", attempt).isBetween(want.minusSeconds(5), want);
            clock.advance(Duration.ofSeconds(31));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> task(errand, id).state() == TaskState.FAILED);
        assertThat(task(errand, id).attempt()).isEqualTo(5);
    }

    @Test
    void requestMaxAttemptsOverridesTheKind() throws Exception {
        Errand errand =
                node(builder().register(alwaysFailing("once").maxAttempts(9).build()));
        long id = errand.enqueue(TaskRequest.builder("once", 1).maxAttempts(1).build())
                .id();
        errand.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> task(errand, id).state() == TaskState.FAILED);
        assertThat(task(errand, id).attempt()).isEqualTo(1);
    }

    @Test
    void retryLaterWithRollbackDiscardsTheAttemptsWrites() throws Exception {
        Errand errand = node(builder()
                .register(TaskDefinition.builder("later-rollback", Integer.class, (n, ctx) -> {
                            recordEffect(ctx.connection(), ctx.taskId(), "attempt-" + ctx.attempt());
                            if (ctx.attempt() == 1) {
                                throw RetryLater.after(Duration.ofMinutes(10), "not ready");
                            }
                        })
                        .build()));
        long id = errand.enqueue(TaskRequest.of("later-rollback", 1)).id();
        errand.start();
        Duration delay = awaitRetryDelay(errand, id, 1);
        assertThat(delay).isBetween(Duration.ofMinutes(10).minusSeconds(10), Duration.ofMinutes(10));
        assertThat(effects()).isZero();
        assertThat(task(errand, id).errorsJson())
                .as("a requested retry is not an error")
                .isNull();
        clock.advance(Duration.ofMinutes(11));
        await().atMost(Duration.ofSeconds(10)).until(() -> taskRows() == 0);
        assertThat(effectNotes()).containsExactly("attempt-2");
    }

    @Test
    void retryLaterWithCommitKeepsTheAttemptsWrites() throws Exception {
        Errand errand = node(builder()
                .register(TaskDefinition.builder("later-commit", Integer.class, (n, ctx) -> {
                            recordEffect(ctx.connection(), ctx.taskId(), "attempt-" + ctx.attempt());
                            if (ctx.attempt() == 1) {
                                throw RetryLater.after(Duration.ofMinutes(10)).commitWrites();
                            }
                        })
                        .build()));
        long id = errand.enqueue(TaskRequest.of("later-commit", 1)).id();
        errand.start();
        awaitRetryDelay(errand, id, 1);
        assertThat(effectNotes()).containsExactly("attempt-1");
        clock.advance(Duration.ofMinutes(11));
        await().atMost(Duration.ofSeconds(10)).until(() -> taskRows() == 0);
        assertThat(effectNotes()).containsExactlyInAnyOrder("attempt-1", "attempt-2");
    }

    @Test
    void retryLaterOnTheLastAttemptFailsTheTask() throws Exception {
        Errand errand = node(builder()
                .register(TaskDefinition.builder("snoozer", Integer.class, (n, ctx) -> {
                            throw RetryLater.after(Duration.ofSeconds(1), "still waiting for the partner");
                        })
                        .maxAttempts(1)
                        .build()));
        long id = errand.enqueue(TaskRequest.of("snoozer", 1)).id();
        errand.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> task(errand, id).state() == TaskState.FAILED);
        assertThat(task(errand, id).lastError())
                .contains("retry later")
                .contains("still waiting for the partner")
                .contains("last attempt");
    }

    @Test
    void failureCallbackRunsExactlyOnceInItsOwnTransaction() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        Errand errand = node(builder()
                .queue("default", 4)
                .register(TaskDefinition.builder("doomed", Integer.class, (n, ctx) -> {
                            recordEffect(ctx.connection(), ctx.taskId(), "handler");
                            throw new IllegalStateException("no luck " + n);
                        })
                        .retryPolicy(RetryPolicy.fixed(Duration.ZERO))
                        .maxAttempts(3)
                        .onFailure((failed, connection) -> {
                            calls.incrementAndGet();
                            recordEffect(
                                    connection,
                                    failed.id(),
                                    "callback attempt=" + failed.attempts() + " error="
                                            + failed.error().lines().findFirst().orElse(""));
                        })
                        .build()));
        long id = errand.enqueue(TaskRequest.of("doomed", 4)).id();
        errand.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> task(errand, id).state() == TaskState.FAILED);
        Thread.sleep(300); // the point: the callback does not run again in this time
        assertThat(calls.get()).isEqualTo(1);
        assertThat(effectNotes())
                .containsExactly("callback attempt=3 error=java.lang.IllegalStateException: no luck 4");
    }

    @Test
    void throwingFailureCallbackIsRecordedAndTheTaskStillFails() throws Exception {
        Errand errand = node(builder()
                .register(alwaysFailing("doomed-callback")
                        .maxAttempts(1)
                        .onFailure((failed, connection) -> {
                            recordEffect(connection, failed.id(), "rolled back with the callback");
                            throw new IllegalStateException("alerting is down");
                        })
                        .build()));
        long id = errand.enqueue(TaskRequest.of("doomed-callback", 1)).id();
        errand.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> task(errand, id).state() == TaskState.FAILED);
        assertThat(task(errand, id).lastError())
                .contains("attempt 1 failed")
                .contains("Failure callback failed: java.lang.IllegalStateException: alerting is down");
        assertThat(effects()).isZero();
    }
}
