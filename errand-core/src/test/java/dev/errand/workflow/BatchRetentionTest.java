package dev.errand.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.batch.BatchEvent;
import dev.errand.batch.BatchRequest;
import dev.errand.batch.EnqueuedBatch;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.TaskDefinition;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code batchRetention}: a finished batch whose callbacks fired loses its own rows once it is older than the
 * retention; an unfinished batch keeps them whatever its age, and a young finished batch keeps them too.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class BatchRetentionTest extends ErrandTestSupport {

    private final AtomicInteger callbacks = new AtomicInteger();

    BatchRetentionTest(Target target) {
        super(target);
    }

    @Test
    void aFinishedBatchIsPrunedAfterItsRetentionAndAnUnfinishedOneIsKept() throws Exception {
        Errand errand = node(builder()
                .batchRetention(Duration.ofHours(1))
                .pruneInterval(Duration.ofSeconds(1))
                .register(TaskDefinition.builder("member", Integer.class, (n, ctx) -> {})
                        .build())
                .register(TaskDefinition.builder("done", Integer.class, (n, ctx) -> callbacks.incrementAndGet())
                        .build()));
        EnqueuedBatch finished = errand.enqueueBatch(BatchRequest.builder()
                .addAll(List.of(TaskRequest.of("member", 1), TaskRequest.of("member", 2)))
                .on(BatchEvent.COMPLETE, id -> TaskRequest.of("done", 1))
                .build());
        EnqueuedBatch unfinished = errand.enqueueBatch(BatchRequest.builder()
                .add(TaskRequest.builder("member", 3)
                        .runAt(Instant.now().plus(Duration.ofDays(30)))
                        .build())
                .on(BatchEvent.COMPLETE, id -> TaskRequest.of("done", 2))
                .build());
        errand.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> callbacks.get() == 1);
        Thread.sleep(1_500); // the point: a prune runs (interval 1 s) and keeps the young batch
        assertThat(errand.batches().progress(finished.id()))
                .as("younger than its retention")
                .isPresent();

        clock.advance(Duration.ofHours(2));
        await().atMost(Duration.ofSeconds(15))
                .until(() -> errand.batches().progress(finished.id()).isEmpty());
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "batch_counter WHERE batch_id = " + finished.id()))
                .isZero();
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "batch_fired WHERE batch_id = " + finished.id()))
                .isZero();
        assertThat(errand.batches().progress(unfinished.id()))
                .as("an unfinished batch is kept whatever its age")
                .isPresent();
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "batch_callback WHERE batch_id = " + unfinished.id()))
                .isEqualTo(1);
        assertThat(errand.admin().find(unfinished.taskIds().get(0))).isPresent();
        assertThat(callbacks.get()).isEqualTo(1);
    }
}
