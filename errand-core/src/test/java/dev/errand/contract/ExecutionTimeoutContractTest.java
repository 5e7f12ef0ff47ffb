package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.internal.node.Nodes;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import dev.errand.testkit.TestDatabase;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A kind's execution timeout: the worker interrupts the handler, a transactional attempt rolls back, and the
 * attempt counts as failed with the timeout as its error. On PostgreSQL the server also bounds the attempt's
 * transaction: its statements past the timeout, and its idleness past one lease.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class ExecutionTimeoutContractTest extends ErrandTestSupport {

    private final AtomicInteger runs = new AtomicInteger();

    ExecutionTimeoutContractTest(Target target) {
        super(target);
    }

    private long awaitFailed(Errand errand, long id) {
        await().atMost(Duration.ofSeconds(20)).until(() -> task(errand, id).state() == TaskState.FAILED);
        return id;
    }

    @Test
    void aTransactionalAttemptPastItsTimeoutIsInterruptedRolledBackAndCounted() throws Exception {
        Errand errand = node(builder()
                .register(TaskDefinition.builder("slow-tx", Integer.class, (n, ctx) -> {
                            recordEffect(ctx.connection(), ctx.taskId(), "attempt-" + ctx.attempt());
                            runs.incrementAndGet();
                            Thread.sleep(30_000); // the point: outlasts the 300 ms execution timeout
                        })
                        .executionTimeout(Duration.ofMillis(300))
                        .maxAttempts(2)
                        .retryPolicy(dev.errand.retry.RetryPolicy.fixed(Duration.ZERO))
                        .build()));
        long id = errand.enqueue(TaskRequest.of("slow-tx", 1)).id();
        long begin = System.nanoTime();
        errand.start();
        awaitFailed(errand, id);
        assertThat(Duration.ofNanos(System.nanoTime() - begin)).isLessThan(Duration.ofSeconds(15));
        assertThat(runs.get()).isEqualTo(2);
        assertThat(effects()).as("both attempts rolled back").isZero();
        assertThat(task(errand, id).attempt()).isEqualTo(2);
        assertThat(task(errand, id).lastError())
                .contains("ExecutionTimeoutException")
                .contains("execution timeout of PT0.3S");
    }

    @Test
    void aNonTransactionalHandlerThatIgnoresTheInterruptStillFails() throws Exception {
        Errand errand = node(builder()
                .register(TaskDefinition.builder("stubborn", Integer.class, (n, ctx) -> {
                            long until =
                                    System.nanoTime() + Duration.ofMillis(800).toNanos();
                            while (System.nanoTime() < until) {
                                Thread.onSpinWait();
                            }
                        })
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .executionTimeout(Duration.ofMillis(100))
                        .maxAttempts(1)
                        .build())
                .register(TaskDefinition.builder("quick", Integer.class, (n, ctx) -> {
                            if (Thread.currentThread().isInterrupted()) {
                                throw new IllegalStateException("the worker kept a stale interrupt");
                            }
                        })
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .executionTimeout(Duration.ofSeconds(10))
                        .maxAttempts(1)
                        .build()));
        long id = errand.enqueue(TaskRequest.of("stubborn", 1)).id();
        errand.start();
        awaitFailed(errand, id);
        assertThat(task(errand, id).lastError()).contains("ExecutionTimeoutException");
        long quick = errand.enqueue(TaskRequest.of("quick", 1)).id();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> errand.admin().find(quick).isEmpty());
    }

    @Test
    void postgresCancelsAStatementPastTheTimeout() throws Exception {
        Assumptions.assumeTrue(database == TestDatabase.POSTGRES, "statement_timeout is PostgreSQL's");
        Errand errand = node(builder()
                .register(TaskDefinition.builder("sleepy-sql", Integer.class, (n, ctx) -> {
                            try (Statement s = ctx.connection().createStatement()) {
                                s.execute("SELECT pg_sleep(30)");
                            }
                        })
                        .executionTimeout(Duration.ofMillis(500))
                        .maxAttempts(1)
                        .build()));
        long id = errand.enqueue(TaskRequest.of("sleepy-sql", 1)).id();
        long begin = System.nanoTime();
        errand.start();
        awaitFailed(errand, id);
        assertThat(Duration.ofNanos(System.nanoTime() - begin)).isLessThan(Duration.ofSeconds(15));
        assertThat(task(errand, id).lastError()).contains("ExecutionTimeoutException");
    }

    @Test
    void postgresEndsAStalledAttemptsTransactionAfterTwoLeasesSoAnotherNodeRescuesIt() throws Exception {
        Assumptions.assumeTrue(database == TestDatabase.POSTGRES, "idle_in_transaction_session_timeout");
        TaskDefinition.Builder<Integer> kind = TaskDefinition.builder("stalls", Integer.class, (n, ctx) -> {
            recordEffect(ctx.connection(), ctx.taskId(), "run-" + runs.incrementAndGet());
            if (runs.get() == 1) {
                // A stalled worker (a SIGSTOP, a long GC pause): its transaction sits idle with the row lock.
                Thread.sleep(9_000);
            }
        });
        Errand stalled = node(builder().register(kind.build()));
        long id = stalled.enqueue(TaskRequest.of("stalls", 1)).id();
        stalled.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> runs.get() == 1);
        Errand rescuer = node(builder().register(kind.build()));
        // The lease is 2 s: the server ends the transaction after 4 s idle, which frees the row for rescue.
        await().atMost(Duration.ofSeconds(8))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    Nodes.of(rescuer).rescueExpiredLeases();
                    return task(rescuer, id).state() != TaskState.RUNNING;
                });
        rescuer.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> taskRows() == 0);
        Thread.sleep(1_000); // the point: the stalled run, had it kept its transaction, commits in this time
        assertThat(effectNotes())
                .as("the stalled run rolled back; the rescued one committed")
                .containsExactly("run-2");
    }

    @Test
    void badTimeoutsAreRejectedWithAHint() {
        TaskDefinition.Builder<Integer> kind = TaskDefinition.builder("k", Integer.class, (n, ctx) -> {});
        assertThatThrownBy(() -> kind.executionTimeout(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("executionTimeout");
        assertThatThrownBy(() -> kind.executionTimeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("executionTimeout");
        assertThatThrownBy(() -> kind.executionTimeout(Duration.ofDays(2)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
