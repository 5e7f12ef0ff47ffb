package dev.errand.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import dev.errand.testing.Targets;
import dev.errand.testkit.TestDatabase;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One task with many dependents: when it succeeds they are all released, and when it fails they are all
 * cancelled, in the one transaction that ends it, a thousand at a time (one statement over all of them would
 * pass MariaDB's 65,535 parameters, and grow with the graph). CI gives it 3,000 dependents (three chunks);
 * {@code -Derrand.workflow.width=33000} is the size past MariaDB's parameter limit (about 50 s per database).
 */
@ParameterizedClass(name = "{0}")
@MethodSource("targets")
class WideWorkflowTest extends ErrandTestSupport {

    private static final int WIDTH = Integer.getInteger("errand.workflow.width", 3_000);

    private final AtomicInteger leaves = new AtomicInteger();

    WideWorkflowTest(Target target) {
        super(target);
    }

    /** Every database, H2 once: pooling changes nothing here. */
    static Stream<Target> targets() {
        return Targets.databases().filter(target -> target.database() != TestDatabase.H2_UNPOOLED);
    }

    private Errand wideNode() {
        return node(builder()
                .queue("default", 4)
                .register(TaskDefinition.builder("root", Boolean.class, (fail, ctx) -> {
                            if (fail) {
                                throw new IllegalStateException("the root fails");
                            }
                        })
                        .maxAttempts(1)
                        .build())
                .register(TaskDefinition.builder("leaf", Integer.class, (i, ctx) -> leaves.incrementAndGet())
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build()));
    }

    private static Workflow wide(boolean rootFails) {
        Workflow.Builder flow = Workflow.builder().step("root", TaskRequest.of("root", rootFails));
        for (int i = 0; i < WIDTH; i++) {
            flow.step("leaf" + i, TaskRequest.of("leaf", i), "root");
        }
        return flow.build();
    }

    @Test
    void aRootThatSucceedsReleasesAllItsDependents() throws Exception {
        Errand errand = wideNode();
        long enqueueStarted = System.nanoTime();
        EnqueuedWorkflow flow = errand.enqueueWorkflow(wide(false));
        double enqueueSeconds = (System.nanoTime() - enqueueStarted) / 1e9;
        assertThat(tasksIn(TaskState.WAITING)).isEqualTo(WIDTH);
        long started = System.nanoTime();
        errand.start();
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> tasksIn(TaskState.WAITING) == 0);
        double releaseSeconds = (System.nanoTime() - started) / 1e9;
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task_condition")).isZero();
        assertThat(tasksIn(TaskState.CANCELLED) + tasksIn(TaskState.FAILED)).isZero();
        // Released means runnable: the leaves start (burning them all down is not this test's subject).
        await().atMost(Duration.ofSeconds(30)).until(() -> leaves.get() >= 100);
        assertThat(flow.taskIds()).hasSize(WIDTH + 1);
        System.out.printf(
                "WideWorkflowTest %s: enqueued 1 + %d steps in %.1f s; all released %.1f s after start%n",
                target, WIDTH, enqueueSeconds, releaseSeconds);
    }

    @Test
    void aRootThatFailsCancelsAllItsDependents() throws Exception {
        Errand errand = wideNode();
        EnqueuedWorkflow flow = errand.enqueueWorkflow(wide(true));
        errand.start();
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> tasksIn(TaskState.CANCELLED) == WIDTH);
        assertThat(tasksIn(TaskState.FAILED)).isEqualTo(1);
        assertThat(tasksIn(TaskState.WAITING) + tasksIn(TaskState.PENDING)).isZero();
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task_condition")).isZero();
        assertThat(task(errand, flow.taskId("leaf" + (WIDTH - 1))).lastError()).contains("failed");
        assertThat(leaves.get()).isZero();
    }
}
