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
import dev.errand.spi.TaskListener;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Three nodes of four workers each complete the members of one batch at the same time, transactional
 * members one transaction each and non-transactional ones in completion flushes, while fan-in workflows
 * (one root, {@value #MIDDLES} steps after it, one step after all of those) release the same dependents from
 * many transactions at once. The batch's counters come out exact, each callback runs once, every fan-in step
 * runs once and after all its dependencies, and the lock conflicts that the databases reported (deadlocks and
 * lock timeouts, each retried) are printed per operation.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class BatchContentionTest extends ErrandTestSupport {

    private static final int MEMBERS = 1_200;
    private static final int FANS = 16;
    private static final int MIDDLES = 30;

    /** Lock conflicts retried, by operation, over the three nodes. */
    private final Map<String, LongAdder> conflicts = new ConcurrentHashMap<>();

    BatchContentionTest(Target target) {
        super(target);
    }

    private Errand node(int n) {
        TaskListener counting = new TaskListener() {
            @Override
            public void lockConflictRetried(String operation) {
                conflicts.computeIfAbsent(operation, key -> new LongAdder()).increment();
            }
        };
        return node(builder()
                .nodeId("contender-" + n)
                .queue("default", 4)
                .listener(counting)
                .register(TaskDefinition.builder(
                                "member",
                                Integer.class,
                                (i, ctx) -> recordEffect(ctx.connection(), ctx.taskId(), "member"))
                        .maxAttempts(10)
                        .build())
                .register(TaskDefinition.builder("loose", Integer.class, (i, ctx) -> {})
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .maxAttempts(10)
                        .build())
                .register(TaskDefinition.builder("fan", String.class, (name, ctx) -> {
                            if (name.endsWith(":final")
                                    && count(ctx.connection(), name.substring(0, name.indexOf(':')) + ":m%")
                                            != MIDDLES) {
                                recordEffect(ctx.connection(), ctx.taskId(), "VIOLATION " + name);
                            }
                            if (name.contains(":m") && count(ctx.connection(), name.replaceAll(":m.*", ":root")) != 1) {
                                recordEffect(ctx.connection(), ctx.taskId(), "VIOLATION " + name);
                            }
                            recordEffect(ctx.connection(), ctx.taskId(), name);
                        })
                        .maxAttempts(10)
                        .build())
                .register(TaskDefinition.builder(
                                "callback",
                                String.class,
                                (event, ctx) -> recordEffect(ctx.connection(), ctx.taskId(), "callback " + event))
                        .build()));
    }

    private long count(Connection c, String notePattern) throws SQLException {
        try (PreparedStatement query =
                c.prepareStatement("SELECT COUNT(*) FROM " + prefix + "effect WHERE note LIKE ?")) {
            query.setString(1, notePattern);
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    @Test
    void concurrentCompletionsCountExactlyFireOnceAndReleaseEachDependentOnce() throws Exception {
        List<Errand> nodes = List.of(node(0), node(1), node(2));
        List<TaskRequest> members = new ArrayList<>(MEMBERS);
        for (int i = 0; i < MEMBERS; i++) {
            members.add(TaskRequest.of(i % 2 == 0 ? "member" : "loose", i));
        }
        EnqueuedBatch batch = nodes.get(0)
                .enqueueBatch(BatchRequest.builder()
                        .addAll(members)
                        .on(BatchEvent.COMPLETE, id -> TaskRequest.of("callback", "complete"))
                        .on(BatchEvent.SUCCESS, id -> TaskRequest.of("callback", "success"))
                        .on(BatchEvent.FAILURE, id -> TaskRequest.of("callback", "failure"))
                        .build());
        for (int f = 0; f < FANS; f++) {
            String fan = "f" + f;
            Workflow.Builder flow = Workflow.builder().step("root", TaskRequest.of("fan", fan + ":root"));
            String[] middles = new String[MIDDLES];
            for (int m = 0; m < MIDDLES; m++) {
                middles[m] = "m" + m;
                flow.step(middles[m], TaskRequest.of("fan", fan + ":m" + m), "root");
            }
            nodes.get(0)
                    .enqueueWorkflow(flow.step("final", TaskRequest.of("fan", fan + ":final"), middles)
                            .build());
        }
        long started = System.nanoTime();
        nodes.forEach(Errand::start);
        await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> effects("callback complete") == 1 && effects("callback success") == 1 && taskRows() == 0);
        double seconds = (System.nanoTime() - started) / 1e9;
        for (Errand node : nodes) {
            Nodes.of(node).sweepBatches();
        }
        Thread.sleep(500); // the point: a second callback, if any, would fire in this time

        BatchProgress progress = nodes.get(0).batches().progress(batch.id()).orElseThrow();
        assertThat(progress.succeeded()).isEqualTo(MEMBERS);
        assertThat(progress.failed() + progress.cancelled()).isZero();
        assertThat(effects("callback complete")).isEqualTo(1);
        assertThat(effects("callback success")).isEqualTo(1);
        assertThat(effects("callback failure")).isZero();
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "batch_fired")).isEqualTo(2);
        // Transactional effects commit with their task's completion: exactly once each.
        assertThat(effects("member")).isEqualTo(MEMBERS / 2);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "effect WHERE note LIKE 'f%'"))
                .isEqualTo(FANS * (MIDDLES + 2L));
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "effect WHERE note LIKE 'VIOLATION%'"))
                .isZero();
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task_condition")).isZero();
        Map<String, Long> retried = new TreeMap<>();
        conflicts.forEach((operation, n) -> retried.put(operation, n.sum()));
        long total = nodes.stream()
                .mapToLong(node -> node.stats().lockConflictRetries())
                .sum();
        System.out.printf(
                "BatchContentionTest %s: %d members and %d fan-ins of %d on 3 nodes x 4 workers in %.1f s;"
                        + " lock conflicts retried: %d %s%n",
                target, MEMBERS, FANS, MIDDLES + 2, seconds, total, retried);
    }

    private long effects(String note) throws SQLException {
        return scalar("SELECT COUNT(*) FROM " + prefix + "effect WHERE note = '" + note + "'");
    }
}
