package dev.errand.stress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.retry.RetryPolicy;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import dev.errand.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Contention on MariaDB: two producers enqueue (batches, single tasks, some rolled back) while two
 * nodes with three workers each claim, complete, retry and sweep for expired leases, all at once,
 * for about 20 seconds ({@code -Derrand.stress.seconds=N} changes it). Afterwards every task is
 * checked: none lost, none run twice, and no deadlock or lock-wait error reached a task.
 */
class MariaDbStressTest extends ErrandTestSupport {

    private static final Logger log = LoggerFactory.getLogger(MariaDbStressTest.class);
    private static final String INTENDED = "intended stress failure";

    MariaDbStressTest() {
        super(Target.of(TestDatabase.MARIADB));
    }

    @Test
    void eightThreadsEnqueueClaimCompleteAndRetryWithoutLosingOrRepeatingWork() throws Exception {
        long seconds = Long.getLong("errand.stress.seconds", 20);
        Map<Long, AtomicInteger> directSuccesses = new ConcurrentHashMap<>();
        List<Errand> nodes = new ArrayList<>();
        for (int n = 0; n < 2; n++) {
            nodes.add(node(builder()
                    .nodeId("stress-" + n)
                    .queue("default", 3)
                    .claimBatchSize(10)
                    .rescueInterval(Duration.ofMillis(200))
                    .succeededRetention(Duration.ofDays(1))
                    .register(TaskDefinition.builder("stress-tx", Integer.class, (value, ctx) -> {
                                recordEffect(ctx.connection(), ctx.taskId(), "tx");
                                maybeFail();
                            })
                            .retryPolicy(RetryPolicy.fixed(Duration.ZERO))
                            .maxAttempts(12)
                            .build())
                    .register(TaskDefinition.builder("stress-direct", Integer.class, (value, ctx) -> {
                                maybeFail();
                                directSuccesses
                                        .computeIfAbsent(ctx.taskId(), id -> new AtomicInteger())
                                        .incrementAndGet();
                            })
                            .mode(ExecutionMode.NON_TRANSACTIONAL)
                            .retryPolicy(RetryPolicy.fixed(Duration.ZERO))
                            .maxAttempts(12)
                            .build())));
        }
        nodes.forEach(Errand::start);

        Set<Long> committed = ConcurrentHashMap.newKeySet();
        Set<Long> rolledBack = ConcurrentHashMap.newKeySet();
        AtomicLong producerErrors = new AtomicLong();
        long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            Errand producer = nodes.get(p);
            Thread thread = new Thread(
                    () -> produce(producer, deadline, committed, rolledBack, producerErrors), "stress-producer-" + p);
            thread.start();
            producers.add(thread);
        }
        for (Thread producer : producers) {
            producer.join();
        }
        await().atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(500))
                .until(() ->
                        scalar("SELECT COUNT(*) FROM " + prefix + "task WHERE state NOT IN ('succeeded', 'failed')")
                                == 0);

        Map<Long, String[]> rows = rows();
        long conflicts = nodes.stream()
                .mapToLong(node -> node.stats().lockConflictRetries())
                .sum();
        log.info(
                "Stress: {} tasks committed, {} rolled back, {} lock conflicts retried, {} succeeded runs of"
                        + " non-transactional tasks",
                committed.size(),
                rolledBack.size(),
                conflicts,
                directSuccesses.size());
        assertThat(producerErrors.get()).as("enqueue errors").isZero();
        assertThat(committed).as("enough work to contend over").hasSizeGreaterThan(500);
        assertThat(rows.keySet())
                .as("every committed task, and nothing else")
                .containsExactlyInAnyOrderElementsOf(committed);
        Map<Long, Long> effects = effectsByTask();
        for (Map.Entry<Long, String[]> row : rows.entrySet()) {
            long id = row.getKey();
            String kind = row.getValue()[0];
            String state = row.getValue()[1];
            String errors = row.getValue()[2];
            assertThat(state).as("task %d", id).isEqualTo("succeeded");
            if (errors != null) {
                assertThat(errors)
                        .as("errors of task %d", id)
                        .doesNotContainIgnoringCase("deadlock")
                        .doesNotContainIgnoringCase("lock wait")
                        .contains(INTENDED);
            }
            if (kind.equals("stress-tx")) {
                assertThat(effects.getOrDefault(id, 0L))
                        .as("effects of transactional task %d", id)
                        .isEqualTo(1);
            } else {
                assertThat(directSuccesses.get(id))
                        .as("successful runs of task %d", id)
                        .hasValue(1);
            }
        }
        assertThat(nodes)
                .allSatisfy(node -> assertThat(node.stats().fencedOff()).isZero());
        assertThat(nodes).allSatisfy(node -> assertThat(node.stats().rescued()).isZero());
    }

    private void produce(Errand producer, long deadline, Set<Long> committed, Set<Long> rolledBack, AtomicLong errors) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (System.nanoTime() < deadline) {
            try {
                // Paced so that the workers keep up: the point is contention, not a backlog to drain.
                Thread.sleep(random.nextInt(2, 12));
                if (random.nextInt(4) == 0) {
                    List<TaskRequest> batch = new ArrayList<>();
                    for (int i = 0; i < 20; i++) {
                        batch.add(request(random));
                    }
                    producer.enqueueAll(batch).forEach(enqueued -> committed.add(enqueued.id()));
                } else {
                    try (Connection c = dataSource().getConnection()) {
                        c.setAutoCommit(false);
                        long id = producer.enqueue(c, request(random)).id();
                        if (random.nextInt(10) == 0) {
                            c.rollback();
                            rolledBack.add(id);
                        } else {
                            c.commit();
                            committed.add(id);
                        }
                        c.setAutoCommit(true);
                    }
                    producer.wakeUp("default");
                }
            } catch (Exception e) {
                errors.incrementAndGet();
                log.error("Producer failed", e);
            }
        }
    }

    private static TaskRequest request(ThreadLocalRandom random) {
        return TaskRequest.builder(random.nextBoolean() ? "stress-tx" : "stress-direct", random.nextInt())
                .priority(1 + random.nextInt(10))
                .build();
    }

    private static void maybeFail() {
        if (ThreadLocalRandom.current().nextInt(4) == 0) {
            throw new IllegalStateException(INTENDED);
        }
    }

    private Map<Long, String[]> rows() throws Exception {
        Map<Long, String[]> rows = new HashMap<>();
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT id, kind, state, errors FROM " + prefix + "task")) {
            while (r.next()) {
                rows.put(r.getLong(1), new String[] {r.getString(2), r.getString(3), r.getString(4)});
            }
        }
        return rows;
    }

    private Map<Long, Long> effectsByTask() throws Exception {
        Map<Long, Long> effects = new HashMap<>();
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT task_id, COUNT(*) FROM " + prefix + "effect GROUP BY task_id")) {
            while (r.next()) {
                effects.put(r.getLong(1), r.getLong(2));
            }
        }
        return effects;
    }
}
