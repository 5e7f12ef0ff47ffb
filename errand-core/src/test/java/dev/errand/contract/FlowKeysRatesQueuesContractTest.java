package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.flow.FlowLimit;
import dev.errand.flow.QueueLimit;
import dev.errand.flow.RateLimit;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskHandler;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Flow control, the rest of issue 31: limit keys read from the payload, rate limits changed at run time, queue
 * limits across nodes, the pruning of idle key slot rows, and what the admin API shows of them.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class FlowKeysRatesQueuesContractTest extends ErrandTestSupport {

    /** A payload with a top-level key and a nested one. */
    record Order(String customerId, Customer customer, int n) {}

    /** The nested part of {@link Order}. */
    record Customer(Long id) {}

    FlowKeysRatesQueuesContractTest(Target target) {
        super(target);
    }

    @BeforeEach
    void createSpanTable() throws SQLException {
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.execute(
                    "CREATE TABLE " + prefix + "span (task_id BIGINT NOT NULL, started BIGINT NOT NULL, ended BIGINT)");
        }
    }

    private void span(long taskId, long started, long ended) throws SQLException {
        try (Connection c = dataSource().getConnection();
                PreparedStatement s = c.prepareStatement(
                        "INSERT INTO " + prefix + "span (task_id, started, ended) VALUES (?, ?, ?)")) {
            s.setLong(1, taskId);
            s.setLong(2, started);
            s.setLong(3, ended);
            s.executeUpdate();
        }
    }

    /** The most spans that were open at one moment. */
    private long maxOverlap() throws SQLException {
        return scalar("SELECT COALESCE(MAX(open_spans), 0) FROM (SELECT (SELECT COUNT(*) FROM " + prefix
                + "span b WHERE b.started <= a.started AND b.ended > a.started) AS open_spans FROM " + prefix
                + "span a) spans_at_start");
    }

    private <P> TaskHandler<P> recording(Duration work) {
        return (payload, ctx) -> {
            long started = System.nanoTime();
            Thread.sleep(work.toMillis()); // the task's work, not a wait for a condition
            span(ctx.taskId(), started, System.nanoTime());
        };
    }

    private static Order order(String customer, long nested, int n) {
        return new Order(customer, new Customer(nested), n);
    }

    @Test
    void aKindTakesItsLimitKeyFromThePayloadAndKeepsEachKeysTasksApart() throws Exception {
        Map<String, AtomicInteger> running = new ConcurrentHashMap<>();
        AtomicInteger most = new AtomicInteger();
        Errand node = node(builder()
                .queue("default", 6)
                .register(TaskDefinition.builder("sync", Order.class, (Order o, dev.errand.task.TaskContext ctx) -> {
                            AtomicInteger now = running.computeIfAbsent(o.customerId(), k -> new AtomicInteger());
                            most.accumulateAndGet(now.incrementAndGet(), Math::max);
                            try {
                                Thread.sleep(20); // the task's work
                            } finally {
                                now.decrementAndGet();
                            }
                        })
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .concurrencyLimitPerKey(1)
                        .limitKeyFrom("customerId")
                        .build())
                .register(TaskDefinition.builder("nested", Order.class, (o, ctx) -> {})
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .concurrencyLimitPerKey(2)
                        .limitKeyFrom("/customer/id")
                        .build()));
        for (int i = 0; i < 24; i++) {
            node.enqueue(TaskRequest.of("sync", order("c-" + (i % 3), i, i)));
        }
        node.enqueue(TaskRequest.of("nested", order("x", 42, 0)));
        long given = node.enqueue(TaskRequest.builder("sync", order("not-the-key", 0, 0))
                        .limitKey("from-the-request")
                        .build())
                .id();
        assertThat(scalar("SELECT COUNT(DISTINCT limit_key) FROM " + prefix + "task WHERE kind = 'sync'"))
                .isEqualTo(4);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task WHERE kind = 'nested' AND limit_key = '42'"))
                .as("a number read by a JSON pointer, as its JSON text")
                .isEqualTo(1);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task WHERE id = " + given
                        + " AND limit_key = 'from-the-request'"))
                .as("a key given on the request wins")
                .isEqualTo(1);

        assertThatThrownBy(() -> node.enqueue(TaskRequest.of("sync", order(null, 1, 1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Kind 'sync' takes its limit key from the payload at '/customerId'")
                .hasMessageContaining("limitKey(");
        assertThatThrownBy(() -> node.enqueue(TaskRequest.of("nested", new Order("x", null, 1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'/customer/id'");
        assertThatThrownBy(() -> node.enqueue(TaskRequest.of("sync", order("k".repeat(201), 1, 1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most 200 characters");
        assertThatThrownBy(() -> node.enqueue(TaskRequest.of("sync", order(" ", 1, 1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limit key");
        assertThatThrownBy(() ->
                        TaskDefinition.builder("k", Order.class, (o, ctx) -> {}).limitKeyFrom(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limitKeyFrom");

        node.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> taskRows() == 0);
        assertThat(most.get()).as("tasks of one customer running at once").isEqualTo(1);
    }

    @Test
    void aRateLimitChangedAtRunTimeAppliesOnEveryNodeAndTheAdminShowsIt() throws Exception {
        AtomicInteger started = new AtomicInteger();
        Errand[] nodes = new Errand[2];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = node(builder()
                    .nodeId("node-" + i)
                    .queue("default", 4)
                    .register(
                            TaskDefinition.builder("partner-call", Integer.class, (n, ctx) -> started.incrementAndGet())
                                    .mode(ExecutionMode.NON_TRANSACTIONAL)
                                    .rateLimit(1, Duration.ofHours(1))
                                    .build()));
        }
        for (int i = 0; i < 8; i++) {
            nodes[0].enqueue(TaskRequest.of("partner-call", i));
        }
        nodes[0].start();
        nodes[1].start();
        await().atMost(Duration.ofSeconds(10)).until(() -> started.get() == 1);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                        nodes[1].flow().limits())
                .singleElement()
                .satisfies(limit -> {
                    assertThat(limit.rate().inForce()).isEqualTo(new RateLimit(1, Duration.ofHours(1)));
                    assertThat(limit.slotsInUse()).as("starts in the window").isEqualTo(1);
                    assertThat(limit.waiting()).isEqualTo(7);
                }));
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> started.get() == 1);

        nodes[0].flow().changeRateLimit("partner-call", new RateLimit(4, Duration.ofSeconds(1)));
        FlowLimit changed = nodes[1].flow().limits().get(0);
        assertThat(changed.rate())
                .isEqualTo(new FlowLimit.Rate(
                        new RateLimit(1, Duration.ofHours(1)), new RateLimit(4, Duration.ofSeconds(1))));
        await().atMost(Duration.ofSeconds(30)).until(() -> started.get() == 8);

        assertThatThrownBy(() -> nodes[0].flow().changeRateLimit("partner-call", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be null");
        assertThatThrownBy(() -> new RateLimit(0, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 1 and");
        assertThatThrownBy(() -> new RateLimit(3, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 1 ms and 24 h");
        assertThatThrownBy(
                        () -> nodes[0].flow().changeRateLimit("no-such-kind", new RateLimit(1, Duration.ofSeconds(1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not registered");
        assertThatThrownBy(() -> nodes[0].flow().changeLimit("partner-call", 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has a rate limit in force");

        nodes[1].flow().resetLimits("partner-call");
        assertThat(nodes[0].flow().limits().get(0).rate())
                .isEqualTo(new FlowLimit.Rate(new RateLimit(1, Duration.ofHours(1)), null));
    }

    @Test
    void aQueueLimitHoldsAcrossNodesChangesAtRunTimeAndShowsItsUse() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger started = new AtomicInteger();
        TaskHandler<Integer> held = (n, ctx) -> {
            long start = System.nanoTime();
            started.incrementAndGet();
            try {
                release.await(30, TimeUnit.SECONDS);
            } finally {
                span(ctx.taskId(), start, System.nanoTime());
            }
        };
        Errand[] nodes = new Errand[3];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = node(builder()
                    .nodeId("node-" + i)
                    .queue("default", 2)
                    .queue("partner", 4)
                    .queueConcurrencyLimit("partner", 2)
                    .register(TaskDefinition.builder("a", Integer.class, held)
                            .mode(ExecutionMode.NON_TRANSACTIONAL)
                            .build())
                    .register(TaskDefinition.builder("b", Integer.class, recording(Duration.ofMillis(10)))
                            .mode(ExecutionMode.NON_TRANSACTIONAL)
                            .build()));
        }
        for (int i = 0; i < 6; i++) {
            nodes[0].enqueue(TaskRequest.builder("a", i).queue("partner").build());
        }
        for (int i = 0; i < 10; i++) {
            nodes[0].enqueue(TaskRequest.builder("b", i).queue("default").build());
        }
        for (Errand node : nodes) {
            node.start();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> started.get() == 2);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> scalar("SELECT COUNT(*) FROM " + prefix + "task WHERE kind = 'b'") == 0);
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> started.get() == 2);
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(nodes[2].flow().queueLimits())
                        .containsExactly(new QueueLimit(
                                "partner", new FlowLimit.Value(2, null), new FlowLimit.Rate(null, null), 2, 0, 4)));

        nodes[1].flow().changeQueueLimit("partner", 3);
        await().atMost(Duration.ofSeconds(10)).until(() -> started.get() == 3);
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> started.get() == 3);
        assertThat(nodes[0].flow().queueLimits().get(0).concurrency()).isEqualTo(new FlowLimit.Value(2, 3));
        nodes[0].flow().resetQueueLimit("partner");
        assertThat(nodes[2].flow().queueLimits().get(0).concurrency()).isEqualTo(new FlowLimit.Value(2, null));
        release.countDown();
        await().atMost(Duration.ofSeconds(30)).until(() -> taskRows() == 0);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "span")).isEqualTo(16);

        assertThatThrownBy(() -> nodes[0].flow().changeQueueLimit("no-such-queue", 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Queue 'no-such-queue' is not served by this node");
        assertThatThrownBy(() -> nodes[0].flow().changeQueueLimit("partner", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 1 and 10000");
        assertThatThrownBy(() -> nodes[0].flow().changeQueueLimit("partner", -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 1 and 10000");
        assertThatThrownBy(() -> builder()
                        .queue("default", 2)
                        .queueConcurrencyLimit("missing", 2)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Queue 'missing' has a concurrency limit but is not declared");
        assertThatThrownBy(() -> builder().queueConcurrencyLimit("default", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("The concurrency limit of queue 'default' must be between 1 and 10000");
    }

    @Test
    void theQueueLimitBoundsTheOverlapOfItsTasksAcrossNodes() throws Exception {
        Errand[] nodes = new Errand[3];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = node(builder()
                    .nodeId("node-" + i)
                    .queue("default", 4)
                    .queueConcurrencyLimit("default", 3)
                    .succeededRetention(Duration.ofDays(1))
                    .register(TaskDefinition.builder("a", Integer.class, recording(Duration.ofMillis(30)))
                            .mode(ExecutionMode.NON_TRANSACTIONAL)
                            .build())
                    .register(TaskDefinition.builder("b", Integer.class, recording(Duration.ofMillis(30)))
                            .build()));
        }
        for (int i = 0; i < 20; i++) {
            nodes[0].enqueue(TaskRequest.of("a", i));
            nodes[0].enqueue(TaskRequest.of("b", i));
        }
        for (Errand node : nodes) {
            node.start();
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> tasksIn(TaskState.SUCCEEDED) == 40);
        assertThat(maxOverlap())
                .as("tasks of the queue running at once, from their spans")
                .isBetween(1L, 3L);
        assertThat(scalar("SELECT MAX(attempt) FROM " + prefix + "task")).isEqualTo(1);
    }

    @Test
    void theLeaderPrunesTheSlotRowsOfIdleKeysAndKeepsBusyOnes() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Errand node = node(builder()
                .queue("default", 4)
                .pruneInterval(Duration.ofSeconds(1))
                .register(
                        TaskDefinition.builder("sync", String.class, (String key, dev.errand.task.TaskContext ctx) -> {
                                    if (key.equals("held")) {
                                        release.await(30, TimeUnit.SECONDS);
                                    }
                                })
                                .mode(ExecutionMode.NON_TRANSACTIONAL)
                                .concurrencyLimitPerKey(1)
                                .build()));
        for (String key : List.of("a", "b", "c", "held")) {
            node.enqueue(TaskRequest.builder("sync", key).limitKey(key).build());
        }
        node.enqueue(TaskRequest.builder("sync", "held").limitKey("held").build());
        node.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> taskRows() == 2);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> scalar("SELECT COUNT(*) FROM " + prefix + "flow_key_slot") == 1);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "flow_key_slot WHERE limit_key = 'held'"))
                .as("a key with a running task keeps its slot")
                .isEqualTo(1);
        release.countDown();
        await().atMost(Duration.ofSeconds(20)).until(() -> taskRows() == 0);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> scalar("SELECT COUNT(*) FROM " + prefix + "flow_key_slot") == 0);

        node.enqueue(TaskRequest.builder("sync", "a").limitKey("a").build());
        await().atMost(Duration.ofSeconds(20)).until(() -> taskRows() == 0);
    }
}
