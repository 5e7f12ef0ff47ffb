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
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A batch of non-transactional no-op tasks completed through the batched completion path (many ids per
 * statement) by several nodes and workers: every member is counted once, and the callbacks fire once. A
 * regression test: the flush once moved on fewer tasks than it completed, and a batch of 2,000 stopped at
 * 1,998 on H2 without reaching its callback.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class BatchedCompletionTest extends ErrandTestSupport {

    private static final int MEMBERS = 2_000;

    private final AtomicInteger handled = new AtomicInteger();
    private final AtomicInteger complete = new AtomicInteger();
    private final AtomicInteger success = new AtomicInteger();

    BatchedCompletionTest(Target target) {
        super(target);
    }

    /**
     * A node completing in batches of up to 100. {@code flavour} 1 keeps succeeded rows (the flush updates
     * them instead of deleting them) and 2 records history in the flush's transaction, so that every way
     * the flush writes is covered.
     */
    private Errand worker(int flavour) {
        dev.errand.ErrandBuilder builder = builder();
        if (flavour == 1) {
            builder.succeededRetention(Duration.ofHours(1));
        } else if (flavour == 2) {
            builder.historyEnabled(true);
        }
        return node(builder.queue("default", 4)
                .completionBatchSize(100)
                .completionFlushInterval(Duration.ofMillis(5))
                .register(TaskDefinition.builder("noop", Integer.class, (n, ctx) -> handled.incrementAndGet())
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build())
                .register(TaskDefinition.builder("done", String.class, (event, ctx) -> {
                            (event.equals("complete") ? complete : success).incrementAndGet();
                        })
                        .build()));
    }

    @Test
    void everyMemberIsCountedOnceAndTheCallbacksFireOnce() throws Exception {
        List<Errand> nodes = List.of(worker(0), worker(1), worker(2));
        TaskKind<Integer> noop = TaskKind.of("noop", Integer.class);
        List<TaskRequest> members = new ArrayList<>(MEMBERS);
        for (int i = 0; i < MEMBERS; i++) {
            members.add(TaskRequest.of(noop, i));
        }
        // Tasks outside the batch share the flushes with its members: a flush mixes linked and plain tasks.
        for (int i = 0; i < MEMBERS / 4; i++) {
            nodes.get(0).enqueue(TaskRequest.of(noop, -i));
        }
        EnqueuedBatch batch = nodes.get(0)
                .enqueueBatch(BatchRequest.builder()
                        .addAll(members)
                        .on(BatchEvent.COMPLETE, id -> TaskRequest.of(TaskKind.of("done", String.class), "complete"))
                        .on(BatchEvent.SUCCESS, id -> TaskRequest.of(TaskKind.of("done", String.class), "success"))
                        .build());
        nodes.forEach(Errand::start);
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> complete.get() == 1 && success.get() == 1 && unfinished() == 0);
        BatchProgress progress = nodes.get(0).batches().progress(batch.id()).orElseThrow();
        assertThat(progress.succeeded()).isEqualTo(MEMBERS);
        assertThat(progress.failed() + progress.cancelled()).isZero();
        assertThat(handled.get()).isGreaterThanOrEqualTo(MEMBERS + MEMBERS / 4);
        for (Errand node : nodes) {
            Nodes.of(node).sweepBatches();
        }
        Thread.sleep(500); // the point: a second callback, if any, would fire in this time
        assertThat(complete.get()).isEqualTo(1);
        assertThat(success.get()).isEqualTo(1);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "batch_fired")).isEqualTo(2);
        assertThat(nodes.get(0).batches().progress(batch.id()).orElseThrow().succeeded())
                .isEqualTo(MEMBERS);
    }

    private long unfinished() throws java.sql.SQLException {
        return scalar("SELECT COUNT(*) FROM " + prefix + "task WHERE state IN ('pending', 'running', 'waiting')");
    }
}
