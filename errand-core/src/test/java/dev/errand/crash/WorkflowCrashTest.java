package dev.errand.crash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.batch.BatchProgress;
import dev.errand.batch.EnqueuedBatch;
import dev.errand.internal.node.Nodes;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import dev.errand.testing.Targets;
import dev.errand.testkit.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Worker JVMs are killed with SIGKILL in the middle of a batch and of diamond workflows: every batch task is
 * counted once, each callback runs once, no dependent runs before its dependencies or twice, and nothing is
 * left waiting. It runs on PostgreSQL, MariaDB and H2; on H2 the test starts an H2 TCP server on a free port
 * (an in-memory database that lives in this JVM), so that the child JVMs share one database with it. CI runs
 * 1,000 tasks; {@code -Derrand.crash.batchTasks=10000} runs the full size (the script
 * {@code scripts/workflow-crash-full.sh}).
 */
@ParameterizedClass(name = "{0}")
@MethodSource("targets")
class WorkflowCrashTest extends ErrandTestSupport {

    private static final int CI_TASKS = 1_000;
    private static final int TASKS = Integer.getInteger("errand.crash.batchTasks", CI_TASKS);
    private static final int DIAMONDS = 20;
    private static final H2TcpDatabase H2_OVER_TCP = new H2TcpDatabase("errand_workflow_crash", 20);

    WorkflowCrashTest(Target target) {
        super(target);
    }

    /** PostgreSQL and MariaDB, and H2 (through a TCP server) when the run selects H2. */
    static Stream<Target> targets() {
        Stream<Target> h2 = TestDatabase.selected().contains(TestDatabase.H2)
                ? Stream.of(Target.of(TestDatabase.H2))
                : Stream.empty();
        return Stream.concat(Targets.servers(), h2);
    }

    @Override
    protected DataSource dataSource() {
        return database.isH2() ? H2_OVER_TCP.dataSource() : super.dataSource();
    }

    @AfterAll
    static void stopH2() throws java.sql.SQLException {
        H2_OVER_TCP.stop();
    }

    /** The JDBC URL the child JVMs connect with. */
    private String url() {
        return database.isH2() ? H2_OVER_TCP.url() : database.url();
    }

    @Test
    void killedWorkersLoseNoCountRunNoCallbackTwiceAndBreakNoDependency() throws Exception {
        long started = System.nanoTime();
        Errand rescuer = node(WorkflowWorkerMain.kinds(
                        builder().queue("default", 4).rescueInterval(Duration.ofMillis(500)), dataSource(), prefix)
                .nodeId("rescuer"));
        EnqueuedBatch batch = WorkflowWorkerMain.enqueueWork(rescuer, TASKS, DIAMONDS);

        List<CrashChild> children = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                children.add(child("workflow-child-" + i));
            }
            for (CrashChild child : children) {
                child.awaitLine(WorkflowWorkerMain.READY, Duration.ofSeconds(60));
            }
            // Kill one worker a fifth of the way in, the other halfway, each in the middle of whatever it does.
            killAt(rescuer, batch, children.get(0), TASKS / 5);
            killAt(rescuer, batch, children.get(1), TASKS / 2);
            CrashChild late = child("workflow-child-late");
            children.add(late);
            late.awaitLine(WorkflowWorkerMain.READY, Duration.ofSeconds(60));
            rescuer.start();
            await().atMost(Duration.ofMinutes(5))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> effectsNamed("callback complete") >= 1
                            && effectsNamed("callback success") >= 1
                            && taskRows() == 0);
            Thread.sleep(1_000); // the point: a second callback, if one were due, would fire in this time
            Nodes.of(rescuer).sweepBatches();
        } finally {
            children.forEach(CrashChild::destroy);
        }

        BatchProgress progress = rescuer.batches().progress(batch.id()).orElseThrow();
        assertThat(progress.succeeded()).isEqualTo(TASKS);
        assertThat(progress.failed() + progress.cancelled()).isZero();
        assertThat(effectsNamed("callback complete")).isEqualTo(1);
        assertThat(effectsNamed("callback success")).isEqualTo(1);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "batch_fired")).isEqualTo(2);
        // Transactional members commit their effect with their completion: exactly once each.
        assertThat(effectsNamed("member")).isEqualTo(TASKS / 2);
        assertThat(scalar("SELECT COUNT(DISTINCT task_id) FROM " + prefix + "effect WHERE note = 'loose'"))
                .isEqualTo(TASKS / 2);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "effect WHERE note LIKE 'VIOLATION%'"))
                .isZero();
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "effect WHERE note LIKE 'w%:%'"))
                .isEqualTo(DIAMONDS * 4L);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task_condition")).isZero();
        System.out.printf(
                "WorkflowCrashTest %s: %d batch tasks and %d diamonds, 2 workers killed, done in %.1f s%n",
                database.displayName(), TASKS, DIAMONDS, (System.nanoTime() - started) / 1e9);
    }

    private CrashChild child(String name) throws java.io.IOException {
        return CrashChild.startMain(WorkflowWorkerMain.class, "256m", name, url(), database.userName(), prefix, name);
    }

    private static void killAt(Errand reader, EnqueuedBatch batch, CrashChild child, long succeeded)
            throws InterruptedException {
        await().atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> reader.batches().progress(batch.id()).orElseThrow().succeeded() >= succeeded);
        assertThat(child.killHard(Duration.ofSeconds(10))).isEqualTo(CrashChild.SIGKILL_EXIT_STATUS);
    }

    private long effectsNamed(String note) throws java.sql.SQLException {
        return scalar("SELECT COUNT(*) FROM " + prefix + "effect WHERE note = '" + note + "'");
    }
}
