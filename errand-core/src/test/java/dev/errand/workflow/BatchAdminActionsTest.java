package dev.errand.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.batch.BatchEvent;
import dev.errand.batch.BatchProgress;
import dev.errand.batch.BatchRequest;
import dev.errand.batch.EnqueuedBatch;
import dev.errand.enqueue.TaskRequest;
import dev.errand.internal.node.Nodes;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskKind;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Operator actions on a task that belongs to a batch or a workflow keep the batch's counts and callbacks
 * right: delete of an unfinished task counts it as cancelled and its dependents follow their policy,
 * retryNow of a finished one takes it out of its count again, and no callback fires twice.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class BatchAdminActionsTest extends ErrandTestSupport {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Instant LATER = Instant.parse("2999-01-01T00:00:00Z");

    private final List<String> ran = new CopyOnWriteArrayList<>();
    /** Names of "flaky" tasks that fail (for good: one attempt) until they are listed here. */
    private final Set<String> healed = ConcurrentHashMap.newKeySet();

    private final CountDownLatch inSlow = new CountDownLatch(1);
    private final CountDownLatch releaseSlow = new CountDownLatch(1);

    BatchAdminActionsTest(Target target) {
        super(target);
    }

    private Errand flowNode() {
        return node(builder()
                .queue("default", 4)
                .register(TaskDefinition.builder("step", String.class, (name, ctx) -> {
                            ran.add(name);
                            recordEffect(ctx.connection(), ctx.taskId(), name);
                        })
                        .build())
                .register(TaskDefinition.builder("flaky", String.class, (name, ctx) -> {
                            ran.add(name);
                            if (!healed.contains(name)) {
                                throw new IllegalStateException("flaky " + name);
                            }
                        })
                        .maxAttempts(1)
                        .build())
                .register(TaskDefinition.builder("slow", String.class, (name, ctx) -> {
                            inSlow.countDown();
                            releaseSlow.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                            ran.add(name);
                        })
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build())
                .register(TaskDefinition.builder("callback", String.class, (name, ctx) -> ran.add(name))
                        .build()));
    }

    private static TaskRequest task(String kind, String name) {
        return TaskRequest.of(TaskKind.of(kind, String.class), name);
    }

    private static TaskRequest later(String kind, String name) {
        return TaskRequest.builder(kind, name).runAt(LATER).build();
    }

    private static BatchRequest.Builder withCallbacks(BatchRequest.Builder batch) {
        return batch.on(BatchEvent.COMPLETE, id -> task("callback", "complete"))
                .on(BatchEvent.SUCCESS, id -> task("callback", "success"))
                .on(BatchEvent.FAILURE, id -> task("callback", "failure"));
    }

    private BatchProgress progress(Errand errand, EnqueuedBatch batch) {
        return errand.batches().progress(batch.id()).orElseThrow();
    }

    /** Waits a moment and sweeps, so that a callback due twice would have fired twice. */
    private void settle(Errand errand) throws InterruptedException {
        Nodes.of(errand).sweepBatches();
        Thread.sleep(300);
    }

    @Test
    void deletingAPendingMemberCountsItCancelledAndTheBatchCompletes() throws Exception {
        Errand errand = flowNode();
        EnqueuedBatch batch = errand.enqueueBatch(
                withCallbacks(BatchRequest.builder().add(task("step", "a")).add(later("step", "stuck")))
                        .build());
        errand.start();
        await().atMost(WAIT).until(() -> progress(errand, batch).succeeded() == 1);

        assertThat(errand.admin().delete(batch.taskIds().get(1))).isTrue();
        assertThat(errand.admin().delete(batch.taskIds().get(1))).isFalse();

        await().atMost(WAIT).until(() -> ran.contains("complete"));
        settle(errand);
        assertThat(progress(errand, batch))
                .extracting(BatchProgress::succeeded, BatchProgress::failed, BatchProgress::cancelled)
                .containsExactly(1L, 0L, 1L);
        assertThat(progress(errand, batch).isFinished()).isTrue();
        assertThat(ran).containsExactly("a", "complete");
        assertThat(errand.batches().firedCallbacks(batch.id())).containsOnlyKeys(BatchEvent.COMPLETE);
    }

    @Test
    void deletingAFinishedMemberChangesNoCount() throws Exception {
        Errand errand = flowNode();
        EnqueuedBatch batch = errand.enqueueBatch(
                withCallbacks(BatchRequest.builder().add(task("flaky", "f")).add(later("step", "stuck")))
                        .build());
        errand.start();
        await().atMost(WAIT).until(() -> ran.contains("failure"));
        assertThat(errand.admin().delete(batch.taskIds().get(0))).isTrue();
        assertThat(progress(errand, batch))
                .extracting(BatchProgress::failed, BatchProgress::cancelled, BatchProgress::pending)
                .containsExactly(1L, 0L, 1L);
    }

    @Test
    void deletingARunningMemberCountsItOnceAndItsAttemptWritesNothing() throws Exception {
        Errand errand = flowNode();
        EnqueuedBatch batch = errand.enqueueBatch(
                withCallbacks(BatchRequest.builder().add(task("slow", "s"))).build());
        errand.start();
        assertThat(inSlow.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        assertThat(errand.admin().delete(batch.taskIds().get(0))).isTrue();
        assertThat(progress(errand, batch).cancelled()).isEqualTo(1);
        releaseSlow.countDown();
        await().atMost(WAIT).until(() -> ran.contains("s") && ran.contains("complete"));
        settle(errand);
        assertThat(progress(errand, batch))
                .extracting(BatchProgress::succeeded, BatchProgress::failed, BatchProgress::cancelled)
                .containsExactly(0L, 0L, 1L);
        assertThat(ran).filteredOn("complete"::equals).hasSize(1);
        assertThat(ran).doesNotContain("success");
    }

    @Test
    void deletingAPendingStepCancelsItsDependentsOrReleasesThemByPolicy() throws Exception {
        Errand errand = flowNode();
        EnqueuedWorkflow cancel = errand.enqueueWorkflow(Workflow.builder()
                .step("a", later("step", "a"))
                .step("b", task("step", "b"), "a")
                .step("c", task("step", "c"), "b")
                .build());
        EnqueuedWorkflow run = errand.enqueueWorkflow(Workflow.builder()
                .onFailedDependency(DependencyPolicy.RUN)
                .step("a", later("step", "a2"))
                .step("b", task("step", "b2"), "a")
                .build());
        assertThat(errand.admin().delete(cancel.taskId("a"))).isTrue();
        assertThat(errand.admin().delete(run.taskId("a"))).isTrue();
        assertThat(task(errand, cancel.taskId("b")).state()).isEqualTo(TaskState.CANCELLED);
        assertThat(task(errand, cancel.taskId("c")).state()).isEqualTo(TaskState.CANCELLED);
        assertThat(task(errand, cancel.taskId("b")).lastError()).contains("was cancelled");
        errand.start();
        await().atMost(WAIT).until(() -> ran.contains("b2"));
        Thread.sleep(300); // the point: no other member runs in this time
        assertThat(ran).containsExactly("b2");
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task_condition")).isZero();
    }

    @Test
    void retryingAFailedMemberMovesItsCountBackAndTheBatchCanStillSucceed() throws Exception {
        Errand errand = flowNode();
        EnqueuedBatch batch = errand.enqueueBatch(
                withCallbacks(BatchRequest.builder().add(task("flaky", "f")).add(later("step", "held")))
                        .build());
        errand.start();
        await().atMost(WAIT).until(() -> ran.contains("failure"));
        assertThat(progress(errand, batch))
                .extracting(BatchProgress::failed, BatchProgress::pending)
                .containsExactly(1L, 1L);

        healed.add("f");
        assertThat(errand.admin().retryNow(batch.taskIds().get(0))).isTrue();
        assertThat(errand.admin().retryNow(batch.taskIds().get(0)))
                .as("pending now")
                .isFalse();
        await().atMost(WAIT).until(() -> progress(errand, batch).succeeded() == 1);
        assertThat(progress(errand, batch))
                .extracting(BatchProgress::failed, BatchProgress::pending)
                .containsExactly(0L, 1L);

        assertThat(errand.admin().reschedule(batch.taskIds().get(1), Instant.now()))
                .isTrue();
        await().atMost(WAIT).until(() -> ran.contains("complete") && ran.contains("success"));
        settle(errand);
        assertThat(progress(errand, batch))
                .extracting(BatchProgress::succeeded, BatchProgress::failed, BatchProgress::cancelled)
                .containsExactly(2L, 0L, 0L);
        // The failure callback fired when the member failed and stays fired: each callback fires once.
        assertThat(ran)
                .filteredOn(line -> List.of("complete", "success", "failure").contains(line))
                .containsExactlyInAnyOrder("failure", "complete", "success");
    }

    @Test
    void retryingAMemberOfAFinishedBatchFiresNoCallbackAgain() throws Exception {
        Errand errand = flowNode();
        EnqueuedBatch batch = errand.enqueueBatch(
                withCallbacks(BatchRequest.builder().add(task("flaky", "f")).add(task("step", "ok")))
                        .build());
        errand.start();
        await().atMost(WAIT).until(() -> ran.contains("complete") && ran.contains("failure"));
        healed.add("f");
        assertThat(errand.admin().retryNow(batch.taskIds().get(0))).isTrue();
        assertThat(progress(errand, batch).pending()).isEqualTo(1);
        await().atMost(WAIT).until(() -> progress(errand, batch).succeeded() == 2);
        settle(errand);
        assertThat(progress(errand, batch).isSucceeded()).isTrue();
        assertThat(ran)
                .filteredOn(line -> List.of("complete", "success", "failure").contains(line))
                .as("the batch finished once, with a failure: its callbacks were decided then")
                .containsExactlyInAnyOrder("failure", "complete");
    }

    @Test
    void retryingACancelledMemberOfACancelledBatchCountsItAgain() throws Exception {
        Errand errand = flowNode();
        EnqueuedBatch batch = errand.enqueueBatch(
                withCallbacks(BatchRequest.builder().add(task("step", "x")).add(task("step", "y")))
                        .build());
        assertThat(errand.batches().cancel(batch.id())).isEqualTo(2);
        assertThat(errand.admin().retryNow(batch.taskIds().get(0))).isTrue();
        assertThat(progress(errand, batch))
                .extracting(BatchProgress::cancelled, BatchProgress::pending)
                .containsExactly(1L, 1L);
        errand.start();
        await().atMost(WAIT).until(() -> progress(errand, batch).succeeded() == 1);
        settle(errand);
        assertThat(ran).filteredOn("complete"::equals).hasSize(1);
    }
}
