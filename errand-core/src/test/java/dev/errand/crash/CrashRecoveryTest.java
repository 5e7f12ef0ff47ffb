package dev.errand.crash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.ErrandBuilder;
import dev.errand.enqueue.TaskRequest;
import dev.errand.internal.node.Nodes;
import dev.errand.task.ExecutionMode;
import dev.errand.task.Task;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Guarantees 2, 3 and 4 of the design under a real crash: a worker JVM ({@link CrashWorkerMain}) is
 * killed with SIGKILL while inside a handler, and another node — this test's JVM — must find the lost
 * work by lease expiry and finish it, with exactly one committed effect for a transactional kind and
 * every attempt counted for a non-transactional one.
 *
 * <p>Time: both nodes use the real database clock (the test's shiftable clock is never advanced). The
 * lease is 2 s with 200 ms heartbeats, and the other node sweeps for expired leases every 200 ms. The
 * test therefore waits about 2 s for the dead worker's lease to lapse by itself: that proves that the
 * lease really ends when the heartbeats stop, with no help from the test. A shifted clock would not be
 * shared with the child JVM anyway, since each process has its own clock object.
 */
@Timeout(value = 50, unit = TimeUnit.SECONDS)
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#servers")
class CrashRecoveryTest extends ErrandTestSupport {

    private static final String CHILD = "crash-child";
    private static final String OTHER = "crash-other";
    private static final Duration CHILD_START = Duration.ofSeconds(30);
    private static final Duration RECOVERY = Duration.ofSeconds(20);
    private static final Duration DEATH = Duration.ofSeconds(10);

    CrashRecoveryTest(Target target) {
        super(target);
    }

    /** Copies the class directories for the children now, while they match the classes this JVM loaded. */
    @BeforeAll
    static void snapshotChildClassPath() {
        ChildClassPath.get();
    }

    @Test
    void transactionalTaskKilledInItsHandlerRunsAgainAndItsEffectCommitsOnce() throws Exception {
        String kind = "crash-tx";
        List<Integer> otherAttempts = new CopyOnWriteArrayList<>();
        // Built (and so migrated) first, but started only after the crash, so that the child claims the task.
        Errand other = node(otherNode(kind, ExecutionMode.TRANSACTIONAL, otherAttempts));
        long id = other.enqueue(TaskRequest.of(kind, 42)).id();

        CrashChild child = CrashChild.start(database, prefix, ExecutionMode.TRANSACTIONAL, kind, CHILD);
        try {
            assertThat(child.awaitLine(CrashWorkerMain.IN_HANDLER, CHILD_START))
                    .isEqualTo(CrashWorkerMain.IN_HANDLER + " " + id + " 1");
            Task running = task(other, id);
            assertThat(running.state()).isEqualTo(TaskState.RUNNING);
            assertThat(running.attempt()).isEqualTo(1);
            assertThat(running.leaseOwner()).isEqualTo(CHILD);
            assertThat(effects()).as("the child's effect is not committed yet").isZero();

            // A transactional run is not heartbeated: its row lock protects it. Once its lease has lapsed,
            // a rescue sweep must still leave the live run alone.
            await().atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> databaseNow().isAfter(running.leaseExpiresAt()));
            assertThat(Nodes.of(other).rescueExpiredLeases())
                    .as("rescued while its worker still ran")
                    .isZero();
            assertThat(task(other, id).state()).isEqualTo(TaskState.RUNNING);

            assertThat(child.killHard(DEATH)).isEqualTo(CrashChild.SIGKILL_EXIT_STATUS);
            assertThat(child.isAlive()).isFalse();
        } finally {
            child.destroy();
        }

        other.start();
        await().atMost(RECOVERY).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> assertThat(
                        other.admin().find(id))
                .as("task %d after recovery", id)
                .isEmpty());
        assertThat(effectNotes())
                .as("the child's uncommitted write rolled back with its transaction")
                .containsExactly(CrashWorkerMain.note(OTHER, 2));
        assertThat(otherAttempts).containsExactly(2);
        assertThat(other.stats().rescued()).isEqualTo(1);
        assertThat(succeeded(1, other)).isEqualTo(1);
    }

    @Test
    void nonTransactionalTaskKilledInItsHandlerRunsAgainAndEveryAttemptIsCounted() throws Exception {
        String kind = "crash-non-tx";
        List<Integer> otherAttempts = new CopyOnWriteArrayList<>();
        // Retention keeps the succeeded row, so that its attempt count and error history can be read.
        Errand other = node(otherNode(kind, ExecutionMode.NON_TRANSACTIONAL, otherAttempts)
                .succeededRetention(Duration.ofHours(1)));
        long id = other.enqueue(TaskRequest.of(kind, 42)).id();

        CrashChild child = CrashChild.start(database, prefix, ExecutionMode.NON_TRANSACTIONAL, kind, CHILD);
        try {
            assertThat(child.awaitLine(CrashWorkerMain.IN_HANDLER, CHILD_START))
                    .isEqualTo(CrashWorkerMain.IN_HANDLER + " " + id + " 1");
            Task running = task(other, id);
            assertThat(running.state()).isEqualTo(TaskState.RUNNING);
            assertThat(running.leaseOwner()).isEqualTo(CHILD);
            assertThat(effectNotes())
                    .as("the child's autocommit effect")
                    .containsExactly(CrashWorkerMain.note(CHILD, 1));
            // The child's heartbeats are alive: they push the lease forward while the handler sleeps.
            Instant firstExpiry = running.leaseExpiresAt();
            await().atMost(Duration.ofSeconds(5))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> task(other, id).leaseExpiresAt().isAfter(firstExpiry));

            assertThat(child.killHard(DEATH)).isEqualTo(CrashChild.SIGKILL_EXIT_STATUS);
            assertThat(child.isAlive()).isFalse();
        } finally {
            child.destroy();
        }

        other.start();
        await().atMost(RECOVERY)
                .pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> assertThat(task(other, id).state()).isEqualTo(TaskState.SUCCEEDED));
        Task done = task(other, id);
        assertThat(done.attempt()).isEqualTo(2);
        assertThat(done.leaseOwner()).isNull();
        assertThat(done.errorsJson()).contains("Worker lost").contains(CHILD);
        JsonNode errors = new ObjectMapper().readTree(done.errorsJson());
        assertThat(errors.isArray()).isTrue();
        assertThat(errors.size())
                .as("one error entry, for the lost attempt: %s", done.errorsJson())
                .isEqualTo(1);
        assertThat(errors.get(0).get("attempt").asInt()).isEqualTo(1);
        assertThat(errors.get(0).get("error").asString()).startsWith("Worker lost");
        assertThat(effectNotes())
                .as("at least once: the lost attempt's effect stays, the retry adds its own")
                .containsExactlyInAnyOrder(CrashWorkerMain.note(CHILD, 1), CrashWorkerMain.note(OTHER, 2));
        assertThat(otherAttempts).containsExactly(2);
        assertThat(other.stats().rescued()).isEqualTo(1);
    }

    @Test
    void workerExitsByItselfWhenItsParentGoesAway() throws Exception {
        node(builder()); // creates the schema the child's node expects
        CrashChild child = CrashChild.start(database, prefix, ExecutionMode.TRANSACTIONAL, "crash-orphan", CHILD);
        try {
            child.awaitLine(CrashWorkerMain.READY, CHILD_START);
            child.closeStdin();
            assertThat(child.awaitExit(DEATH)).isEqualTo(CrashWorkerMain.ORPHAN_EXIT_STATUS);
        } finally {
            child.destroy();
        }
    }

    /** The surviving node: same kind as the child's, but its handler completes and records its attempt. */
    private ErrandBuilder otherNode(String kind, ExecutionMode mode, List<Integer> attempts) {
        return builder()
                .nodeId(OTHER)
                .queue("default", 2)
                .rescueInterval(Duration.ofMillis(200))
                .register(TaskDefinition.builder(kind, Integer.class, (payload, context) -> {
                            assertThat(payload).isEqualTo(42);
                            attempts.add(context.attempt());
                            String note = CrashWorkerMain.note(OTHER, context.attempt());
                            if (mode == ExecutionMode.TRANSACTIONAL) {
                                recordEffect(context.connection(), context.taskId(), note);
                            } else {
                                recordEffect(context.taskId(), note);
                            }
                        })
                        .mode(mode)
                        .maxAttempts(5)
                        .build());
    }
}
