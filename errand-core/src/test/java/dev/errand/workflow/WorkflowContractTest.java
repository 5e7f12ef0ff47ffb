package dev.errand.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.ErrandBuilder;
import dev.errand.batch.BatchEvent;
import dev.errand.batch.BatchProgress;
import dev.errand.batch.BatchRequest;
import dev.errand.batch.EnqueuedBatch;
import dev.errand.enqueue.TaskRequest;
import dev.errand.internal.node.Nodes;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Continuations, dependencies between tasks and batches, on a real database. It sits outside the contract
 * package so that the second H2 line's run (surefire execution {@code h2-next}) leaves it out: it touches no
 * H2-version-specific SQL beyond what the contract suite covers, and CI time is shared.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class WorkflowContractTest extends ErrandTestSupport {

    private static final Duration WAIT = Duration.ofSeconds(20);

    /** The steps that ran, in order, with their payload. */
    private final List<String> ran = new CopyOnWriteArrayList<>();

    WorkflowContractTest(Target target) {
        super(target);
    }

    /** A node with a transactional and a non-transactional step kind, a failing kind and a callback kind. */
    private Errand flowNode(ErrandBuilder builder) {
        return node(builder.queue("default", 4)
                .register(TaskDefinition.builder("step", String.class, (name, ctx) -> {
                            ran.add(name);
                            recordEffect(ctx.connection(), ctx.taskId(), name);
                        })
                        .build())
                .register(TaskDefinition.builder("loose", String.class, (name, ctx) -> ran.add(name))
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build())
                .register(TaskDefinition.builder("broken", String.class, (name, ctx) -> {
                            ran.add(name);
                            throw new IllegalStateException("broken " + name);
                        })
                        .maxAttempts(1)
                        .build())
                .register(TaskDefinition.builder("callback", String.class, (name, ctx) -> {
                            ran.add(name);
                            recordEffect(ctx.connection(), ctx.taskId(), name);
                        })
                        .build())
                .register(TaskDefinition.builder("chain", Integer.class, (n, ctx) -> {
                            ran.add("chain-" + n);
                            if (n < 3) {
                                ctx.continueWith(dev.errand.task.TaskKind.of("chain", Integer.class), n + 1);
                            }
                        })
                        .build())
                .register(TaskDefinition.builder("loose-chain", Integer.class, (n, ctx) -> {
                            ran.add("loose-chain-" + n);
                            if (n < 3) {
                                ctx.continueWith("loose-chain", n + 1);
                            }
                        })
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build())
                .register(TaskDefinition.builder("regretful", Integer.class, (n, ctx) -> {
                            ran.add("regretful-" + n);
                            ctx.continueWith(dev.errand.task.TaskKind.of("chain", Integer.class), 3);
                            throw new IllegalStateException("changed my mind");
                        })
                        .maxAttempts(1)
                        .build())
                .register(TaskDefinition.builder("misuser", Integer.class, (n, ctx) -> {
                            try {
                                ctx.continueWith("step", 42);
                            } catch (IllegalArgumentException expected) {
                                ran.add("refused: " + expected.getMessage());
                            }
                        })
                        .build()));
    }

    private Errand flowNode() {
        return flowNode(builder());
    }

    private static TaskRequest step(String name) {
        return TaskRequest.of(dev.errand.task.TaskKind.of("step", String.class), name);
    }

    private static TaskRequest kindStep(String kind, String name) {
        return TaskRequest.of(dev.errand.task.TaskKind.of(kind, String.class), name);
    }

    // ---- continuations ----

    @Test
    void aTransactionalHandlerContinuesWithTheNextStepAndTheChainIsVisible() throws Exception {
        Errand errand = flowNode(builder().succeededRetention(Duration.ofHours(1)));
        long first = errand.enqueue(TaskRequest.of(dev.errand.task.TaskKind.of("chain", Integer.class), 1))
                .id();
        errand.start();
        await().atMost(WAIT).until(() -> ran.size() == 3);
        assertThat(ran).containsExactly("chain-1", "chain-2", "chain-3");
        await().atMost(WAIT).until(() -> tasksIn(TaskState.SUCCEEDED) == 3);
        List<Long> chain = errand.admin().chain(first);
        assertThat(chain).hasSize(3).startsWith(first);
        assertThat(errand.admin().chain(chain.get(1))).isEqualTo(chain);
        assertThat(errand.admin().chain(chain.get(2))).isEqualTo(chain);
        assertThat(errand.admin().chain(999_999_999L)).isEmpty();
        assertThatThrownBy(() -> errand.admin().chain(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aNonTransactionalHandlerContinuesWithTheCompletion() throws Exception {
        Errand errand = flowNode();
        errand.enqueue(TaskRequest.of(dev.errand.task.TaskKind.of("loose-chain", Integer.class), 1));
        errand.start();
        await().atMost(WAIT).until(() -> ran.size() == 3 && taskRows() == 0);
        assertThat(ran).containsExactly("loose-chain-1", "loose-chain-2", "loose-chain-3");
    }

    @Test
    void aContinuationOfAFailedAttemptIsNeverCreatedAndABadOneIsRefusedInTheHandler() throws Exception {
        Errand errand = flowNode();
        errand.enqueue(TaskRequest.of(dev.errand.task.TaskKind.of("regretful", Integer.class), 1));
        errand.enqueue(TaskRequest.of(dev.errand.task.TaskKind.of("misuser", Integer.class), 1));
        errand.start();
        await().atMost(WAIT).until(() -> tasksIn(TaskState.FAILED) == 1 && taskRows() == 1);
        Thread.sleep(300); // the point: the chain's next step does not run in this time
        assertThat(ran).doesNotContain("chain-3");
        assertThat(ran)
                .anySatisfy(line -> assertThat(line).contains("refused: ").contains("String"));
    }

    // ---- batches ----

    @Test
    void aBatchCountsItsTasksAndFiresItsCompleteAndSuccessCallbacksOnce() throws Exception {
        Errand errand = flowNode();
        List<TaskRequest> tasks = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            tasks.add(i % 2 == 0 ? step("t" + i) : kindStep("loose", "l" + i));
        }
        EnqueuedBatch batch = errand.enqueueBatch(BatchRequest.builder()
                .addAll(tasks)
                .on(BatchEvent.COMPLETE, id -> kindStep("callback", "complete-" + id))
                .on(BatchEvent.SUCCESS, id -> kindStep("callback", "success-" + id))
                .on(BatchEvent.FAILURE, id -> kindStep("callback", "failure-" + id))
                .build());
        assertThat(batch.taskIds()).hasSize(40);
        assertThat(errand.batches().progress(batch.id())).contains(new BatchProgress(batch.id(), 40, 0, 0, 0, null));
        errand.start();
        await().atMost(WAIT)
                .until(() -> ran.contains("complete-" + batch.id()) && ran.contains("success-" + batch.id()));
        BatchProgress progress = errand.batches().progress(batch.id()).orElseThrow();
        assertThat(progress.succeeded()).isEqualTo(40);
        assertThat(progress.pending()).isZero();
        assertThat(progress.isFinished()).isTrue();
        Nodes.of(errand).sweepBatches();
        Thread.sleep(300); // the point: a second callback, if any, would fire in this time
        assertThat(ran).filteredOn(line -> line.startsWith("complete-")).hasSize(1);
        assertThat(ran).filteredOn(line -> line.startsWith("failure-")).isEmpty();
        assertThat(errand.batches().firedCallbacks(batch.id()))
                .containsOnlyKeys(BatchEvent.COMPLETE, BatchEvent.SUCCESS);
    }

    @Test
    void aFailureFiresTheFailureCallbackOnceAndTheSuccessCallbackNever() throws Exception {
        Errand errand = flowNode();
        EnqueuedBatch batch = errand.enqueueBatch(BatchRequest.builder()
                .add(step("ok"))
                .add(kindStep("broken", "bad-1"))
                .add(kindStep("broken", "bad-2"))
                .on(BatchEvent.COMPLETE, id -> kindStep("callback", "complete"))
                .on(BatchEvent.SUCCESS, id -> kindStep("callback", "success"))
                .on(BatchEvent.FAILURE, id -> kindStep("callback", "failure"))
                .build());
        errand.start();
        try {
            await().atMost(WAIT).until(() -> ran.contains("complete") && ran.contains("failure"));
        } catch (RuntimeException e) {
            System.out.println(
                    "DEBUG ran=" + ran + " progress=" + errand.batches().progress(batch.id()) + " fired="
                            + errand.batches().firedCallbacks(batch.id()) + " rows=" + taskRows() + " failed="
                            + tasksIn(TaskState.FAILED));
            throw e;
        }
        Nodes.of(errand).sweepBatches();
        Thread.sleep(300); // the point: a second callback, if any, would fire in this time
        assertThat(ran).filteredOn("failure"::equals).hasSize(1);
        assertThat(ran).doesNotContain("success");
        assertThat(errand.batches().progress(batch.id()).orElseThrow())
                .extracting(BatchProgress::succeeded, BatchProgress::failed, BatchProgress::pending)
                .containsExactly(1L, 2L, 0L);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "batch_callback")).isEqualTo(2);
    }

    @Test
    void aCancelledBatchCancelsItsUnstartedTasksAndCompletes() throws Exception {
        Errand errand = flowNode();
        EnqueuedBatch batch = errand.enqueueBatch(BatchRequest.builder()
                .addAll(List.of(step("a"), step("b"), step("c")))
                .on(BatchEvent.COMPLETE, id -> kindStep("callback", "complete"))
                .build());
        assertThat(errand.batches().cancel(batch.id())).isEqualTo(3);
        assertThat(errand.batches().cancel(batch.id())).isZero();
        BatchProgress progress = errand.batches().progress(batch.id()).orElseThrow();
        assertThat(progress.cancelled()).isEqualTo(3);
        assertThat(progress.cancelledAt()).isNotNull();
        assertThat(tasksIn(TaskState.CANCELLED)).isEqualTo(3);
        errand.start();
        await().atMost(WAIT).until(() -> ran.contains("complete"));
        assertThat(ran).containsExactly("complete");
    }

    @Test
    void anAdminCancelOfOneTaskCountsInItsBatch() throws Exception {
        Errand errand = flowNode();
        EnqueuedBatch batch = errand.enqueueBatch(
                BatchRequest.builder().addAll(List.of(step("a"), step("b"))).build());
        assertThat(errand.admin().cancel(batch.taskIds().get(0))).isTrue();
        assertThat(errand.batches().progress(batch.id()).orElseThrow().cancelled())
                .isEqualTo(1);
    }

    @Test
    void twoNodesCompletingOneBatchCountEveryTaskOnceAndFireOnce() throws Exception {
        Errand one = flowNode();
        Errand two = flowNode();
        List<TaskRequest> tasks = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            tasks.add(i % 3 == 0 ? step("t" + i) : kindStep("loose", "l" + i));
        }
        EnqueuedBatch batch = one.enqueueBatch(BatchRequest.builder()
                .addAll(tasks)
                .on(BatchEvent.COMPLETE, id -> kindStep("callback", "complete"))
                .build());
        one.start();
        two.start();
        await().atMost(WAIT).until(() -> ran.contains("complete"));
        Nodes.of(one).sweepBatches();
        Nodes.of(two).sweepBatches();
        Thread.sleep(300); // the point: a second callback, if any, would fire in this time
        assertThat(ran).filteredOn("complete"::equals).hasSize(1);
        assertThat(errand(one).progress(batch.id()).orElseThrow().succeeded()).isEqualTo(300);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "batch_fired")).isEqualTo(1);
    }

    private static dev.errand.batch.BatchAdmin errand(Errand node) {
        return node.batches();
    }

    @Test
    void aBatchOnTheCallersConnectionCommitsOrRollsBackWithIt() throws Exception {
        Errand errand = flowNode();
        try (Connection c = dataSource().getConnection()) {
            c.setAutoCommit(false);
            errand.enqueueBatch(c, BatchRequest.builder().add(step("x")).build());
            c.rollback();
        }
        assertThat(taskRows()).isZero();
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "batch")).isZero();
    }

    @Test
    void badBatchInputIsRefusedWithAMessage() {
        Errand errand = flowNode();
        assertThatThrownBy(() -> BatchRequest.builder().build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one task");
        assertThatThrownBy(() -> BatchRequest.builder()
                        .add(TaskRequest.builder("step", "x").uniqueKey("k").build()))
                .hasMessageContaining("unique key");
        assertThatThrownBy(() -> BatchRequest.builder().on(BatchEvent.COMPLETE, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> errand.enqueueBatch(null)).hasMessageContaining("BatchRequest.builder()");
        assertThatThrownBy(() -> errand.enqueueBatch(BatchRequest.builder()
                        .add(TaskRequest.builder("step", "x").queue("nowhere").build())
                        .build()))
                .hasMessageContaining("nowhere");
        assertThatThrownBy(() -> errand.batches().progress(0)).hasMessageContaining("positive");
        assertThatThrownBy(() -> errand.batches().cancel(12345)).hasMessageContaining("no batch 12345");
        assertThat(errand.batches().progress(12345)).isEmpty();
    }

    // ---- dependencies ----

    private static Workflow diamond(String first, DependencyPolicy policy) {
        return Workflow.builder()
                .step("a", first.equals("broken") ? kindStep("broken", "a") : step("a"))
                .step("b", step("b"), "a")
                .step("c", kindStep("loose", "c"), "a")
                .step("d", step("d"), "b", "c")
                .onFailedDependency(policy)
                .build();
    }

    @Test
    void aDiamondRunsEachStepOnceAfterItsDependencies() throws Exception {
        Errand errand = flowNode();
        EnqueuedWorkflow flow = errand.enqueueWorkflow(diamond("step", DependencyPolicy.CANCEL));
        assertThat(task(errand, flow.taskId("d")).state()).isEqualTo(TaskState.WAITING);
        assertThat(task(errand, flow.taskId("a")).state()).isEqualTo(TaskState.PENDING);
        errand.start();
        await().atMost(WAIT).until(() -> ran.size() == 4 && taskRows() == 0);
        assertThat(ran.get(0)).isEqualTo("a");
        assertThat(ran.get(3)).isEqualTo("d");
        assertThat(ran.subList(1, 3)).containsExactlyInAnyOrder("b", "c");
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task_condition")).isZero();
    }

    @Test
    void whenADependencyFailsItsDependentsAreCancelledDownTheGraph() throws Exception {
        Errand errand = flowNode();
        EnqueuedWorkflow flow = errand.enqueueWorkflow(diamond("broken", DependencyPolicy.CANCEL));
        errand.start();
        await().atMost(WAIT).until(() -> tasksIn(TaskState.CANCELLED) == 3);
        assertThat(ran).containsExactly("a");
        assertThat(task(errand, flow.taskId("a")).state()).isEqualTo(TaskState.FAILED);
        assertThat(task(errand, flow.taskId("b")).lastError()).contains("failed");
        assertThat(task(errand, flow.taskId("d")).lastError()).contains("was cancelled");
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task_condition")).isZero();
    }

    @Test
    void withTheRunPolicyDependentsRunAfterAFailedDependency() throws Exception {
        Errand errand = flowNode();
        errand.enqueueWorkflow(diamond("broken", DependencyPolicy.RUN));
        errand.start();
        await().atMost(WAIT).until(() -> ran.size() == 4 && taskRows() == 1);
        assertThat(ran.get(0)).isEqualTo("a");
        assertThat(ran.get(3)).isEqualTo("d");
    }

    @Test
    void cancellingAPendingDependencyCancelsItsDependents() throws Exception {
        Errand errand = flowNode();
        EnqueuedWorkflow flow = errand.enqueueWorkflow(diamond("step", DependencyPolicy.CANCEL));
        assertThat(errand.admin().cancel(flow.taskId("a"))).isTrue();
        assertThat(tasksIn(TaskState.CANCELLED)).isEqualTo(4);
        errand.start();
        Thread.sleep(300); // the point: nothing of the cancelled flow runs in this time
        assertThat(ran).isEmpty();
    }

    @Test
    void aWorkflowOnTheCallersConnectionCommitsOrRollsBackWithIt() throws Exception {
        Errand errand = flowNode();
        try (Connection c = dataSource().getConnection()) {
            c.setAutoCommit(false);
            errand.enqueueWorkflow(c, diamond("step", DependencyPolicy.CANCEL));
            c.rollback();
        }
        assertThat(taskRows()).isZero();
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task_condition")).isZero();
    }

    @Test
    void badWorkflowInputIsRefusedWithAMessage() {
        Errand errand = flowNode();
        assertThatThrownBy(() -> Workflow.builder().build()).hasMessageContaining("at least one step");
        assertThatThrownBy(() -> Workflow.builder().step("b", step("b"), "a"))
                .hasMessageContaining("not a step added before it");
        assertThatThrownBy(() -> Workflow.builder().step("a", step("a")).step("a", step("a")))
                .hasMessageContaining("already");
        assertThatThrownBy(() -> Workflow.builder().step(" ", step("a"))).hasMessageContaining("not blank");
        assertThatThrownBy(() -> Workflow.builder()
                        .step(
                                "a",
                                TaskRequest.builder("step", "a").uniqueKey("k").build()))
                .hasMessageContaining("unique key");
        assertThatThrownBy(() -> Workflow.builder().onFailedDependency(null)).hasMessageContaining("CANCEL or RUN");
        assertThatThrownBy(() -> errand.enqueueWorkflow(null)).hasMessageContaining("Workflow.builder()");
        assertThatThrownBy(() -> errand.enqueueWorkflow(Workflow.builder()
                        .step("a", step("a"))
                        .step(
                                "b",
                                TaskRequest.builder("step", "b")
                                        .queue("nowhere")
                                        .build(),
                                "a")
                        .build()))
                .hasMessageContaining("nowhere");
        assertThat(errand.enqueueWorkflow(
                                Workflow.builder().step("a", step("a")).build())
                        .taskIds())
                .containsOnlyKeys("a");
        assertThatThrownBy(() -> new EnqueuedWorkflow(Map.of("a", 1L)).taskId("z"))
                .hasMessageContaining("No step \"z\"");
        assertThatThrownBy(() -> errand.triggerEvent("errand:after:1")).hasMessageContaining("reserves");
        assertThatThrownBy(() -> TaskRequest.builder("step", "x").condition("errand:after:1"))
                .hasMessageContaining("reserves");
    }
}
