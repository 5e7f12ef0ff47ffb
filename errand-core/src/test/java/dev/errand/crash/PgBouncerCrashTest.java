package dev.errand.crash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import dev.errand.testkit.PgBouncer;
import dev.errand.testkit.TestDatabase;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A worker JVM connected through PgBouncer in transaction mode is killed with SIGKILL inside a transactional
 * handler: PgBouncer drops the dead client's server connection, PostgreSQL rolls its transaction back, and another
 * node, through the same PgBouncer, rescues the task once its lease lapses and commits its effect exactly once.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@ParameterizedClass(name = "{0}")
@MethodSource("postgres")
class PgBouncerCrashTest extends ErrandTestSupport {

    private static final String CHILD = "bouncer-child";
    private static final String OTHER = "bouncer-other";

    PgBouncerCrashTest(Target target) {
        super(target);
    }

    static Stream<Target> postgres() {
        return TestDatabase.selected().stream()
                .filter(d -> d == TestDatabase.POSTGRES)
                .map(Target::of);
    }

    @BeforeAll
    static void snapshotChildClassPath() {
        ChildClassPath.get();
    }

    @Test
    void aTransactionalTaskKilledInItsHandlerThroughPgBouncerCommitsItsEffectOnce() throws Exception {
        String kind = "bouncer-tx";
        List<Integer> otherAttempts = new CopyOnWriteArrayList<>();
        try (PgBouncer bouncer = PgBouncer.start(PgBouncer.PoolMode.TRANSACTION);
                HikariDataSource pool = CrashWorkerMain.pool(bouncer.url("prepareThreshold=0"), "postgres", 8)) {
            Errand other = node(builder(pool)
                    .nodeId(OTHER)
                    .rescueInterval(Duration.ofMillis(200))
                    .register(TaskDefinition.builder(kind, Integer.class, (payload, context) -> {
                                otherAttempts.add(context.attempt());
                                recordEffect(
                                        context.connection(),
                                        context.taskId(),
                                        CrashWorkerMain.note(OTHER, context.attempt()));
                            })
                            .mode(ExecutionMode.TRANSACTIONAL)
                            .build()));
            long id = other.enqueue(TaskRequest.of(kind, 42)).id();

            CrashChild child = CrashChild.start(bouncer.url("prepareThreshold=0"), "postgres", new String[] {
                prefix, ExecutionMode.TRANSACTIONAL.name(), kind, CHILD
            });
            try {
                assertThat(child.awaitLine(CrashWorkerMain.IN_HANDLER, Duration.ofSeconds(30)))
                        .isEqualTo(CrashWorkerMain.IN_HANDLER + " " + id + " 1");
                assertThat(task(other, id).leaseOwner()).isEqualTo(CHILD);
                assertThat(child.killHard(Duration.ofSeconds(10))).isEqualTo(CrashChild.SIGKILL_EXIT_STATUS);
            } finally {
                child.destroy();
            }

            other.start();
            await().atMost(Duration.ofSeconds(25))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> other.admin().find(id).isEmpty());
            assertThat(effectNotes())
                    .as("the child's write rolled back with its transaction; the rescue's committed once")
                    .containsExactly(CrashWorkerMain.note(OTHER, 2));
            assertThat(otherAttempts).containsExactly(2);
            assertThat(other.stats().rescued()).isEqualTo(1);
            assertThat(tasksIn(TaskState.RUNNING)).isZero();
            other.stop(Duration.ofSeconds(5));
        }
    }
}
