package dev.errand.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.Errand;
import dev.errand.batch.BatchEvent;
import dev.errand.batch.BatchRequest;
import dev.errand.batch.EnqueuedBatch;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.TaskDefinition;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import dev.errand.testkit.TestDatabase;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Enqueues one large batch and checks that every member is written with its batch. CI enqueues 20,000
 * members (several chunks); {@code -Derrand.batch.members=1000000} measures a batch of a million on
 * PostgreSQL and prints the time and the heap's peak (see docs/BENCHMARKS.md, "Batches").
 */
@ParameterizedClass(name = "{0}")
@MethodSource("targets")
class LargeBatchEnqueueTest extends ErrandTestSupport {

    private static final int MEMBERS = Integer.getInteger("errand.batch.members", 20_000);

    LargeBatchEnqueueTest(Target target) {
        super(target);
    }

    /** Every database for the CI size; PostgreSQL alone for a measured size. */
    static Stream<Target> targets() {
        return dev.errand.testing.Targets.databases()
                .filter(target -> target.database() != TestDatabase.H2_UNPOOLED)
                .filter(target -> MEMBERS <= 20_000 || target.database() == TestDatabase.POSTGRES);
    }

    @Test
    void aLargeBatchIsWrittenInChunksWithEveryMemberInIt() throws Exception {
        Errand errand = node(builder()
                .queue("default", 1)
                .register(TaskDefinition.builder("member", Integer.class, (n, ctx) -> {})
                        .build()));
        List<TaskRequest> members = new ArrayList<>(MEMBERS);
        for (int i = 0; i < MEMBERS; i++) {
            members.add(TaskRequest.of("member", i));
        }
        BatchRequest request = BatchRequest.builder()
                .addAll(members)
                .on(BatchEvent.COMPLETE, id -> TaskRequest.of("member", -1))
                .build();
        members = null;
        System.gc();
        long before = used();
        resetPeaks();
        long started = System.nanoTime();
        EnqueuedBatch batch = errand.enqueueBatch(request);
        double seconds = (System.nanoTime() - started) / 1e9;
        long peak = peak();
        assertThat(batch.taskIds()).hasSize(MEMBERS);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task WHERE batch_id = " + batch.id()))
                .isEqualTo(MEMBERS);
        assertThat(errand.batches().progress(batch.id()).orElseThrow().total()).isEqualTo(MEMBERS);
        System.out.printf(
                "LargeBatchEnqueueTest %s: %,d members enqueued in %.1f s (%,.0f rows/s); heap in use %d MB"
                        + " before, peak %d MB during (max %d MB)%n",
                target,
                MEMBERS,
                seconds,
                MEMBERS / seconds,
                before >> 20,
                peak >> 20,
                Runtime.getRuntime().maxMemory() >> 20);
    }

    private static long used() {
        return Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory();
    }

    private static void resetPeaks() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
            }
        }
    }

    /** The sum of the heap pools' peaks since {@link #resetPeaks()}: an upper bound of the peak in use. */
    private static long peak() {
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        return peak;
    }
}
