package dev.errand.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.admin.TaskLinks;
import dev.errand.batch.BatchEvent;
import dev.errand.batch.BatchQuery;
import dev.errand.batch.BatchRequest;
import dev.errand.batch.BatchSummary;
import dev.errand.enqueue.TaskRequest;
import dev.errand.event.WaitingTask;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The read side of workflows and batches on a real database: a workflow's graph with its steps' states, a task's
 * links, and the listing of batches with their callbacks.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class WorkflowGraphContractTest extends ErrandTestSupport {

    WorkflowGraphContractTest(Target target) {
        super(target);
    }

    private Errand node() {
        return node(builder()
                .succeededRetention(Duration.ofHours(1))
                .register(TaskDefinition.builder("step", String.class, (s, ctx) -> {})
                        .build()));
    }

    private static TaskRequest step(String name) {
        return TaskRequest.of("step", name);
    }

    @Test
    void aWorkflowIsCancelledStepByStepAndItsEndedStepsStayAsTheyAre() throws Exception {
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        Errand errand = node(builder()
                .succeededRetention(Duration.ofHours(1))
                .register(TaskDefinition.builder("step", String.class, (s, ctx) -> {})
                        .build())
                .register(TaskDefinition.builder("slow", String.class, (s, ctx) -> {
                            // Holds until the test lets go or the node interrupts it for the cancel request.
                            release.await(30, java.util.concurrent.TimeUnit.SECONDS);
                        })
                        .build()));
        EnqueuedWorkflow flow = errand.enqueueWorkflow(Workflow.builder()
                .step("quick", step("quick"))
                .step("long", TaskRequest.of("slow", "long"))
                .step("after-quick", step("after-quick"), "quick", "long")
                .step(
                        "later",
                        TaskRequest.builder("step", "later")
                                .delay(Duration.ofHours(1))
                                .build())
                .build());
        errand.start();
        try {
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> task(errand, flow.taskId("quick")).state() == TaskState.SUCCEEDED
                            && task(errand, flow.taskId("long")).state() == TaskState.RUNNING);

            dev.errand.batch.WorkflowCancellation done =
                    errand.batches().cancelWorkflow(flow.taskId("later")).orElseThrow();

            assertThat(done.workflowId()).isEqualTo(flow.taskId("quick"));
            assertThat(done.cancelled())
                    .as("after-quick (waiting) and later (pending)")
                    .isEqualTo(2);
            assertThat(done.askedToStop()).as("long, running").isEqualTo(1);
            assertThat(task(errand, flow.taskId("quick")).state()).isEqualTo(TaskState.SUCCEEDED);
            assertThat(task(errand, flow.taskId("after-quick")).state()).isEqualTo(TaskState.CANCELLED);
            assertThat(task(errand, flow.taskId("later")).state()).isEqualTo(TaskState.CANCELLED);
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> task(errand, flow.taskId("long")).state() == TaskState.CANCELLED);
            assertThat(errand.batches().cancelWorkflow(flow.taskId("quick")))
                    .contains(new dev.errand.batch.WorkflowCancellation(flow.taskId("quick"), 0, 0));
        } finally {
            release.countDown();
        }
        long plain = errand.enqueue(step("alone")).id();
        assertThat(errand.batches().cancelWorkflow(plain)).isEmpty();
        assertThat(errand.batches().cancelWorkflow(Long.MAX_VALUE)).isEmpty();
        assertThatThrownBy(() -> errand.batches().cancelWorkflow(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("taskId must be positive");
    }

    @Test
    void aWorkflowsGraphHasItsStepsStatesAndEdgesAndEachTaskItsLinks() {
        Errand errand = node();
        EnqueuedWorkflow flow = errand.enqueueWorkflow(Workflow.builder()
                .step("fetch", step("fetch"))
                .step("resize", step("resize"), "fetch")
                .step(
                        "scan",
                        TaskRequest.builder("step", "scan")
                                .condition("approved:7")
                                .build(),
                        "fetch")
                .step("publish", step("publish"), "resize", "scan")
                .build());
        long fetch = flow.taskId("fetch");
        long resize = flow.taskId("resize");
        long scan = flow.taskId("scan");
        long publish = flow.taskId("publish");

        WorkflowGraph graph = errand.batches().workflow(publish).orElseThrow();

        assertThat(graph.workflowId()).isEqualTo(fetch);
        assertThat(graph.steps())
                .extracting(WorkflowGraph.Step::taskId, WorkflowGraph.Step::step, WorkflowGraph.Step::state)
                .containsExactly(
                        tuple(fetch, "fetch", TaskState.PENDING),
                        tuple(resize, "resize", TaskState.WAITING),
                        tuple(scan, "scan", TaskState.WAITING),
                        tuple(publish, "publish", TaskState.WAITING));
        assertThat(graph.edges())
                .containsExactlyInAnyOrder(
                        new WorkflowGraph.Edge(fetch, resize),
                        new WorkflowGraph.Edge(fetch, scan),
                        new WorkflowGraph.Edge(resize, publish),
                        new WorkflowGraph.Edge(scan, publish));
        assertThat(errand.batches().workflow(fetch)).contains(graph);

        TaskLinks scanLinks = errand.admin().links(scan).orElseThrow();
        assertThat(scanLinks.workflowId()).isEqualTo(fetch);
        assertThat(scanLinks.step()).isEqualTo("scan");
        assertThat(scanLinks.batchId()).isNull();
        assertThat(scanLinks.dependsOn()).containsExactly(fetch);
        assertThat(scanLinks.dependents()).containsExactly(publish);
        assertThat(scanLinks.openConditions())
                .extracting(WaitingTask.OpenCondition::event)
                .containsExactly("approved:7", "errand:after:" + fetch);

        errand.start();
        await().atMost(Duration.ofSeconds(15))
                .until(() -> errand.admin().find(resize).orElseThrow().state() == TaskState.SUCCEEDED);
        // The dependency conditions are gone; the stored edges still say what ran after what.
        TaskLinks afterRun = errand.admin().links(scan).orElseThrow();
        assertThat(afterRun.dependsOn()).containsExactly(fetch);
        assertThat(afterRun.openConditions())
                .extracting(WaitingTask.OpenCondition::event)
                .containsExactly("approved:7");
        assertThat(errand.batches().workflow(scan).orElseThrow().steps())
                .extracting(WorkflowGraph.Step::state)
                .containsExactly(TaskState.SUCCEEDED, TaskState.SUCCEEDED, TaskState.WAITING, TaskState.WAITING);
    }

    @Test
    void aTaskOutsideWorkflowsHasNoGraphAndBadIdsAreRefused() {
        Errand errand = node();
        long lone = errand.enqueue(step("lone")).id();

        assertThat(errand.batches().workflow(lone)).isEmpty();
        TaskLinks links = errand.admin().links(lone).orElseThrow();
        assertThat(links.workflowId()).isNull();
        assertThat(links.dependsOn()).isEmpty();
        assertThat(links.dependents()).isEmpty();
        assertThat(errand.admin().links(lone + 1000)).isEmpty();
        assertThatThrownBy(() -> errand.admin().links(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> errand.batches().workflow(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("positive");
        assertThatThrownBy(() -> errand.batches().list(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BatchQuery.newest(0)).hasMessageContaining("between 1 and 1000");
        assertThatThrownBy(() -> BatchQuery.newest(1001)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BatchQuery.newest(5).withBeforeId(0L)).hasMessageContaining("positive");
        Instant now = Instant.now();
        assertThatThrownBy(() -> BatchQuery.newest(5).withCreated(now, now)).hasMessageContaining("before");
    }

    @Test
    void batchesAreListedNewestFirstWithTheirCallbacksAndPagedByKeyset() {
        Errand errand = node();
        long done = errand.enqueueBatch(BatchRequest.builder()
                        .add(step("d1"))
                        .on(BatchEvent.COMPLETE, id -> step("callback"))
                        .build())
                .id();
        long open = errand.enqueueBatch(BatchRequest.builder()
                        .add(TaskRequest.builder("step", "later")
                                .delay(Duration.ofHours(1))
                                .build())
                        .add(step("o2"))
                        .on(BatchEvent.SUCCESS, id -> step("callback"))
                        .on(BatchEvent.FAILURE, id -> step("callback"))
                        .build())
                .id();
        long plain = errand.enqueueBatch(BatchRequest.builder().add(step("p1")).build())
                .id();
        errand.start();
        await().atMost(Duration.ofSeconds(15))
                .until(() -> errand.batches().progress(done).orElseThrow().isFinished()
                        && errand.batches().progress(plain).orElseThrow().isFinished()
                        && errand.batches().progress(open).orElseThrow().succeeded() == 1
                        && !errand.batches().firedCallbacks(done).isEmpty());

        List<BatchSummary> all = errand.batches().list(BatchQuery.newest(10));
        assertThat(all).extracting(BatchSummary::batchId).containsExactly(plain, open, done);
        BatchSummary first = all.get(2);
        assertThat(first.callbacks()).containsOnlyKeys(BatchEvent.COMPLETE);
        assertThat(first.callbacks().get(BatchEvent.COMPLETE).fired()).isTrue();
        assertThat(first.callbacks().get(BatchEvent.COMPLETE).firedTaskId())
                .isEqualTo(errand.batches().firedCallbacks(done).get(BatchEvent.COMPLETE));
        BatchSummary unfinished = all.get(1);
        assertThat(unfinished.progress().total()).isEqualTo(2);
        assertThat(unfinished.progress().succeeded()).isEqualTo(1);
        assertThat(unfinished.callbacks()).containsOnlyKeys(BatchEvent.SUCCESS, BatchEvent.FAILURE);
        assertThat(unfinished.callbacks().values()).noneMatch(state -> state.fired());
        assertThat(unfinished.createdAt()).isNotNull();
        assertThat(all.get(0).callbacks()).isEmpty();

        assertThat(errand.batches().list(BatchQuery.newest(10).withFinished(false)))
                .extracting(BatchSummary::batchId)
                .containsExactly(open);
        assertThat(errand.batches().list(BatchQuery.newest(10).withFinished(true)))
                .extracting(BatchSummary::batchId)
                .containsExactly(plain, done);
        List<BatchSummary> page = errand.batches().list(BatchQuery.newest(2));
        assertThat(page).extracting(BatchSummary::batchId).containsExactly(plain, open);
        assertThat(errand.batches().list(BatchQuery.newest(2).withBeforeId(open)))
                .extracting(BatchSummary::batchId)
                .containsExactly(done);
        Instant created = unfinished.createdAt();
        assertThat(errand.batches().list(BatchQuery.newest(10).withCreated(created.plusSeconds(3600), null)))
                .isEmpty();
        assertThat(errand.batches().list(BatchQuery.newest(10).withCreated(null, created.plusSeconds(3600))))
                .hasSize(3);
    }
}
