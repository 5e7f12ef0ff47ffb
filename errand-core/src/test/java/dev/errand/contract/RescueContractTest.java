package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.internal.node.Nodes;
import dev.errand.task.ExecutionMode;
import dev.errand.task.LeaseExpiryAction;
import dev.errand.task.Task;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskHandler;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Guarantee 2 (nothing is lost): expired leases are rescued, live work is not, and every node may
 * rescue at once. A "lost" node is simulated in-process by a node whose handler hangs and whose
 * heartbeats are too slow to matter, while the shared test clock jumps past its lease.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#claiming")
class RescueContractTest extends ErrandTestSupport {

    RescueContractTest(Target target) {
        super(target);
    }

    /**
     * A node that will look lost: 1 h leases, heartbeats every 30 min, and one worker slot, which its
     * hanging attempt holds, so that it cannot claim the task again as a live node would.
     */
    private Errand lostNode(TaskDefinition<?> definition) {
        return node(builder()
                .nodeId("lost-node")
                .queue("default", 1)
                .leaseDuration(Duration.ofHours(1))
                .heartbeatInterval(Duration.ofMinutes(30))
                .register(definition));
    }

    private TaskHandler<Integer> hangingThenRecording(
            CountDownLatch started, CountDownLatch release, String note, boolean transactional) {
        return (n, ctx) -> {
            started.countDown();
            release.await(30, TimeUnit.SECONDS);
            if (transactional) {
                recordEffect(ctx.connection(), ctx.taskId(), note + "-attempt-" + ctx.attempt());
            } else {
                recordEffect(ctx.taskId(), note + "-attempt-" + ctx.attempt());
            }
        };
    }

    @Test
    void lostNonTransactionalAttemptIsRetriedElsewhereAndCounted() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Errand lost = lostNode(
                TaskDefinition.builder("call-api", Integer.class, hangingThenRecording(started, release, "lost", false))
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build());
        long id = lost.enqueue(TaskRequest.of("call-api", 1)).id();
        lost.start();
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

        Errand survivor = node(builder()
                .nodeId("survivor")
                .succeededRetention(Duration.ofDays(1))
                .register(TaskDefinition.builder(
                                "call-api",
                                Integer.class,
                                (n, ctx) -> recordEffect(ctx.taskId(), "survivor-attempt-" + ctx.attempt()))
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build()));
        assertThat(Nodes.of(survivor).rescueExpiredLeases())
                .as("lease still valid")
                .isZero();
        clock.advance(Duration.ofHours(2));
        assertThat(Nodes.of(survivor).rescueExpiredLeases()).isEqualTo(1);
        Task rescued = task(survivor, id);
        assertThat(rescued.state()).isEqualTo(TaskState.PENDING);
        assertThat(rescued.lastError()).contains("Worker lost").contains("lost-node");
        assertThat(errorAttempts(rescued)).containsExactly(1);

        survivor.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> task(survivor, id).state() == TaskState.SUCCEEDED);
        assertThat(task(survivor, id).attempt()).isEqualTo(2);

        // The lost worker wakes up late: its run happened (at least once) but its completion is fenced off.
        release.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> lost.stats().fencedOff() == 1);
        assertThat(effectNotes()).containsExactlyInAnyOrder("survivor-attempt-2", "lost-attempt-1");
        assertThat(task(survivor, id).state()).isEqualTo(TaskState.SUCCEEDED);
    }

    @Test
    void kindThatFailsOnLostWorkerIsFailedWithItsCallbackOnce() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger callbacks = new AtomicInteger();
        TaskDefinition<Integer> definition = TaskDefinition.builder(
                        "charge-card", Integer.class, hangingThenRecording(started, release, "charge", false))
                .mode(ExecutionMode.NON_TRANSACTIONAL)
                .onLeaseExpired(LeaseExpiryAction.FAIL)
                .onFailure((failed, c) -> callbacks.incrementAndGet())
                .build();
        Errand lost = lostNode(definition);
        long id = lost.enqueue(TaskRequest.of("charge-card", 1)).id();
        lost.start();
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        Errand survivor = node(builder()
                .nodeId("survivor")
                .register(TaskDefinition.builder("charge-card", Integer.class, (n, ctx) -> {})
                        .onLeaseExpired(LeaseExpiryAction.FAIL)
                        .onFailure((failed, c) -> callbacks.incrementAndGet())
                        .build()));
        clock.advance(Duration.ofHours(2));
        assertThat(Nodes.of(survivor).rescueExpiredLeases()).isEqualTo(1);
        Task failed = task(survivor, id);
        assertThat(failed.state()).isEqualTo(TaskState.FAILED);
        assertThat(failed.lastError()).contains("Worker lost");
        assertThat(callbacks.get()).isEqualTo(1);
        assertThat(Nodes.of(survivor).rescueExpiredLeases()).isZero();
        release.countDown();
    }

    @Test
    void liveTransactionalRunIsNeverRescuedEvenPastItsLease() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Errand slow = lostNode(
                TaskDefinition.builder("ledger", Integer.class, hangingThenRecording(started, release, "ledger", true))
                        .build());
        long id = slow.enqueue(TaskRequest.of("ledger", 1)).id();
        slow.start();
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        Errand other = node(builder()
                .nodeId("other")
                .register(TaskDefinition.builder(
                                "ledger",
                                Integer.class,
                                (n, ctx) -> recordEffect(ctx.connection(), ctx.taskId(), "other"))
                        .build()));
        clock.advance(Duration.ofHours(2));
        // The handler's transaction still holds the row lock: rescue skips it.
        assertThat(Nodes.of(other).rescueExpiredLeases()).isZero();
        assertThat(task(other, id).state()).isEqualTo(TaskState.RUNNING);
        release.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> taskRows() == 0);
        assertThat(effectNotes()).containsExactly("ledger-attempt-1");
    }

    @Test
    void heartbeatsKeepALongNonTransactionalTaskAlive() throws Exception {
        Errand errand = node(builder()
                .leaseDuration(Duration.ofSeconds(1))
                .heartbeatInterval(Duration.ofMillis(200))
                .rescueInterval(Duration.ofMillis(100))
                .register(TaskDefinition.builder("long-call", Integer.class, (n, ctx) -> {
                            Thread.sleep(2_500); // slow on purpose: outlasts the 1 s lease, kept by heartbeats
                            recordEffect(ctx.taskId(), "done-attempt-" + ctx.attempt());
                        })
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build()));
        errand.enqueue(TaskRequest.of("long-call", 1));
        errand.start();
        await().atMost(Duration.ofSeconds(15)).until(() -> taskRows() == 0);
        assertThat(effectNotes()).containsExactly("done-attempt-1");
        assertThat(errand.stats().rescued()).isZero();
    }

    @Test
    void everyNodeMayRescueAtOnceAndEachTaskIsRescuedOnce() throws Exception {
        Errand first = node(builder().nodeId("first"));
        Errand second = node(builder().nodeId("second"));
        List<TaskRequest> requests = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            requests.add(TaskRequest.of("orphan", i));
        }
        first.enqueueAll(requests);
        // Rows as a node that died mid-run leaves them.
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE " + prefix + "task SET state = 'running', attempt = 1, lease_owner = 'dead-node',"
                    + " lease_token = 42, lease_expires_at = " + database.nowSql() + ", started_at = "
                    + database.nowSql());
        }
        clock.advance(Duration.ofMinutes(1));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Integer> a = pool.submit(Nodes.of(first)::rescueExpiredLeases);
            Future<Integer> b = pool.submit(Nodes.of(second)::rescueExpiredLeases);
            assertThat(a.get() + b.get()).isEqualTo(60);
        } finally {
            pool.shutdownNow();
        }
        assertThat(tasksIn(TaskState.PENDING)).isEqualTo(60);
        for (Task task : first.admin()
                .list(dev.errand.admin.TaskQuery.builder().limit(100).build())
                .items()) {
            assertThat(errorAttempts(task)).containsExactly(1);
            assertThat(task.lastError()).contains("dead-node");
        }
    }
}
