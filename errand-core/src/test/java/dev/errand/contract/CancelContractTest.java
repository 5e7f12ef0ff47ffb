package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.admin.Cancellation;
import dev.errand.enqueue.TaskRequest;
import dev.errand.retry.RetryPolicy;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Cancelling: a pending task at once, a running one cooperatively (its handler sees the request on its
 * context and its thread is interrupted), in both execution modes; a handler that ignores the request
 * completes; a request that arrives after its attempt ended still cancels the task.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class CancelContractTest extends ErrandTestSupport {

    CancelContractTest(Target target) {
        super(target);
    }

    private Errand started(TaskDefinition<?>... definitions) {
        var builder = builder().rescueInterval(Duration.ofMillis(200));
        for (TaskDefinition<?> definition : definitions) {
            builder.register(definition);
        }
        Errand errand = node(builder);
        errand.start();
        return errand;
    }

    @Test
    void aPendingTaskIsCancelledAtOnceAndAFinishedOneIsNot() {
        Errand errand = node(builder()
                .register(TaskDefinition.builder("later", Integer.class, (n, ctx) -> {})
                        .build()));
        long id = errand.enqueue(TaskRequest.builder("later", 1)
                        .delay(Duration.ofHours(1))
                        .build())
                .id();
        assertThat(errand.admin().requestCancel(id)).isEqualTo(Cancellation.CANCELLED);
        assertThat(task(errand, id).state()).isEqualTo(TaskState.CANCELLED);
        assertThat(errand.admin().requestCancel(id)).isEqualTo(Cancellation.NOT_CANCELLABLE);
        assertThat(errand.admin().requestCancel(id + 1000)).isEqualTo(Cancellation.NOT_CANCELLABLE);
        assertThatThrownBy(() -> errand.admin().requestCancel(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aRunningTransactionalTaskIsInterruptedAndEndsCancelledWithoutItsWrites() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        AtomicBoolean sawFlag = new AtomicBoolean();
        Errand errand = started(TaskDefinition.builder("long-tx", Integer.class, (n, ctx) -> {
                    recordEffect(ctx.connection(), ctx.taskId(), "written before the cancel");
                    inside.countDown();
                    try {
                        Thread.sleep(30_000); // the point: runs until cancelled
                    } finally {
                        sawFlag.set(ctx.isCancelled());
                    }
                })
                .maxAttempts(5)
                .build());
        long id = errand.enqueue(TaskRequest.of("long-tx", 1)).id();
        assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();

        assertThat(errand.admin().requestCancel(id)).isEqualTo(Cancellation.REQUESTED);
        await().atMost(Duration.ofSeconds(10)).until(() -> task(errand, id).state() == TaskState.CANCELLED);
        assertThat(sawFlag).isTrue();
        assertThat(effects()).as("the cancelled attempt's writes rolled back").isZero();
        assertThat(task(errand, id).leaseOwner()).isNull();
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "cancel_request"))
                .as("request deleted")
                .isZero();
    }

    @Test
    void aRunningNonTransactionalTaskThatPollsTheFlagStopsAndEndsCancelled() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        Errand errand = started(TaskDefinition.builder("long-loop", Integer.class, (n, ctx) -> {
                    inside.countDown();
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                    while (!ctx.isCancelled() && System.nanoTime() < deadline) {
                        Thread.onSpinWait();
                    }
                    if (ctx.isCancelled()) {
                        throw new IllegalStateException("stopped on request");
                    }
                })
                .mode(ExecutionMode.NON_TRANSACTIONAL)
                .build());
        long id = errand.enqueue(TaskRequest.of("long-loop", 1)).id();
        assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();

        assertThat(errand.admin().requestCancel(id)).isEqualTo(Cancellation.REQUESTED);
        await().atMost(Duration.ofSeconds(10)).until(() -> task(errand, id).state() == TaskState.CANCELLED);
        assertThat(task(errand, id).lastError()).as("a cancel is not a failure").isNull();
    }

    @Test
    void aHandlerThatIgnoresTheRequestCompletesItsTask() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch requested = new CountDownLatch(1);
        Errand errand = started(TaskDefinition.builder("stubborn", Integer.class, (n, ctx) -> {
                    inside.countDown();
                    requested.await(10, TimeUnit.SECONDS);
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                    while (!ctx.isCancelled() && System.nanoTime() < deadline) {
                        Thread.onSpinWait();
                    }
                    Thread.interrupted();
                    recordEffect(ctx.connection(), ctx.taskId(), "finished anyway");
                })
                .build());
        long id = errand.enqueue(TaskRequest.of("stubborn", 1)).id();
        assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(errand.admin().requestCancel(id)).isEqualTo(Cancellation.REQUESTED);
        requested.countDown();

        await().atMost(Duration.ofSeconds(30))
                .until(() -> errand.admin().find(id).isEmpty());
        assertThat(effectNotes()).containsExactly("finished anyway");
        await().atMost(Duration.ofSeconds(5))
                .until(() -> scalar("SELECT COUNT(*) FROM " + prefix + "cancel_request") == 0);
    }

    @Test
    void aRequestThatArrivesAfterItsAttemptEndedStillCancelsTheTask() throws Exception {
        Errand errand = node(builder()
                .register(TaskDefinition.builder("flaky", Integer.class, (n, ctx) -> {
                            throw new IllegalStateException("fails");
                        })
                        .retryPolicy(RetryPolicy.fixed(Duration.ofHours(1)))
                        .build()));
        long id = errand.enqueue(TaskRequest.of("flaky", 1)).id();
        // Running on a node that is about to end its attempt: the request is stored, then the task retries.
        execute("UPDATE " + prefix + "task SET state = 'running', attempt = 1, lease_owner = 'other-node',"
                + " lease_token = 9, started_at = created_at, lease_expires_at = run_at WHERE id = " + id);
        assertThat(errand.admin().requestCancel(id)).isEqualTo(Cancellation.REQUESTED);
        execute("UPDATE " + prefix + "task SET state = 'pending', lease_owner = NULL, lease_token = NULL,"
                + " lease_expires_at = NULL WHERE id = " + id);

        Errand settling = started(TaskDefinition.builder("flaky", Integer.class, (n, ctx) -> {
                    throw new IllegalStateException("fails");
                })
                .retryPolicy(RetryPolicy.fixed(Duration.ofHours(1)))
                .build());
        await().atMost(Duration.ofSeconds(10)).until(() -> task(settling, id).state() == TaskState.CANCELLED);
    }

    private void execute(String sql) throws Exception {
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        }
    }
}
