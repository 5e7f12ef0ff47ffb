package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.flow.FlowLimit;
import dev.errand.internal.node.Nodes;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Flow control (issue 31): a kind's concurrency limit holds across every node of the cluster, a task held back
 * spends no attempt, and a slot held by a lost node frees when its lease is rescued. Each attempt writes its
 * start and end (System.nanoTime, one JVM) to a table; the most attempts that overlapped is computed in SQL.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class FlowLimitContractTest extends ErrandTestSupport {

    FlowLimitContractTest(Target target) {
        super(target);
    }

    @BeforeEach
    void createSpanTable() throws SQLException {
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + prefix
                    + "span (task_id BIGINT NOT NULL, attempt INT NOT NULL, started BIGINT NOT NULL, ended BIGINT,"
                    + " limit_key VARCHAR(200))");
        }
    }

    /** A handler that records its span and works for {@code work}. */
    private TaskHandler<Integer> recording(Duration work, AtomicInteger running, AtomicInteger most) {
        return (n, ctx) -> {
            long started = System.nanoTime();
            int now = running.incrementAndGet();
            most.accumulateAndGet(now, Math::max);
            try {
                Thread.sleep(work.toMillis()); // the task's work, not a wait for a condition
            } finally {
                running.decrementAndGet();
                span(ctx.taskId(), ctx.attempt(), started, System.nanoTime());
            }
        };
    }

    private void span(long taskId, int attempt, long started, long ended) throws SQLException {
        span(taskId, attempt, started, ended, null);
    }

    private void span(long taskId, int attempt, long started, long ended, String key) throws SQLException {
        try (Connection c = dataSource().getConnection();
                PreparedStatement s = c.prepareStatement("INSERT INTO " + prefix
                        + "span (task_id, attempt, started, ended, limit_key) VALUES (?, ?, ?, ?, ?)")) {
            s.setLong(1, taskId);
            s.setInt(2, attempt);
            s.setLong(3, started);
            s.setLong(4, ended);
            s.setString(5, key);
            s.executeUpdate();
        }
    }

    private static String keyOf(int n) {
        return "customer-" + (n % 8);
    }

    /** The most spans that were open at one moment: at each start, the spans begun and not yet ended. */
    private long maxOverlap() throws SQLException {
        return scalar("SELECT COALESCE(MAX(open_spans), 0) FROM (SELECT (SELECT COUNT(*) FROM " + prefix
                + "span b WHERE b.started <= a.started AND b.ended > a.started) AS open_spans FROM " + prefix
                + "span a) spans_at_start");
    }

    private TaskDefinition<Integer> limited(int limit, TaskHandler<Integer> handler) {
        return TaskDefinition.builder("partner-call", Integer.class, handler)
                .mode(ExecutionMode.NON_TRANSACTIONAL)
                .concurrencyLimit(limit)
                .build();
    }

    @Test
    void aKindsLimitHoldsAcrossNodesAndHeldBackTasksSpendNoAttempt() throws Exception {
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        AtomicInteger others = new AtomicInteger();
        Errand[] nodes = new Errand[3];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = node(builder()
                    .nodeId("node-" + i)
                    .queue("default", 4)
                    .succeededRetention(Duration.ofDays(1))
                    .register(limited(3, recording(Duration.ofMillis(40), running, most)))
                    .register(TaskDefinition.builder("other", Integer.class, (n, ctx) -> others.incrementAndGet())
                            .mode(ExecutionMode.NON_TRANSACTIONAL)
                            .build()));
        }
        int tasks = 36;
        for (int i = 0; i < tasks; i++) {
            nodes[0].enqueue(TaskRequest.of("partner-call", i));
            nodes[0].enqueue(TaskRequest.of("other", i));
        }
        for (Errand node : nodes) {
            node.start();
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> tasksIn(TaskState.SUCCEEDED) == 2L * tasks);

        assertThat(others.get()).isEqualTo(tasks);
        assertThat(most.get())
                .as("attempts running at once, counted in the JVM")
                .isBetween(1, 3);
        assertThat(maxOverlap())
                .as("attempts running at once, from their spans")
                .isBetween(1L, 3L);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "span")).isEqualTo(tasks);
        assertThat(scalar("SELECT MAX(attempt) FROM " + prefix + "task WHERE kind = 'partner-call'"))
                .as("a task held back by the limit spends no attempt")
                .isEqualTo(1);
    }

    @Test
    void aSlotHeldByALostNodeFreesWhenItsLeaseIsRescued() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Errand lost = node(builder()
                .nodeId("lost-node")
                .queue("default", 1)
                .leaseDuration(Duration.ofHours(1))
                .heartbeatInterval(Duration.ofMinutes(30))
                .register(limited(1, (n, ctx) -> {
                    started.countDown();
                    release.await(30, TimeUnit.SECONDS);
                })));
        long first = lost.enqueue(TaskRequest.of("partner-call", 1)).id();
        lost.start();
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        Errand survivor = node(builder()
                .nodeId("survivor")
                .queue("default", 4)
                .succeededRetention(Duration.ofDays(1))
                .register(limited(1, recording(Duration.ofMillis(1), running, most))));
        long second = survivor.enqueue(TaskRequest.of("partner-call", 2)).id();
        survivor.start();
        long polls = Nodes.of(survivor).polls();
        await().atMost(Duration.ofSeconds(10)).until(() -> Nodes.of(survivor).polls() > polls + 5);
        assertThat(task(survivor, second).state())
                .as("the lost node's running task holds the only slot")
                .isEqualTo(TaskState.PENDING);
        assertThat(task(survivor, second).attempt()).isZero();

        clock.advance(Duration.ofHours(2));
        assertThat(Nodes.of(survivor).rescueExpiredLeases()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> task(survivor, first).state() == TaskState.SUCCEEDED
                        && task(survivor, second).state() == TaskState.SUCCEEDED);
        assertThat(task(survivor, second).attempt()).isEqualTo(1);
        assertThat(most.get()).isEqualTo(1);
        release.countDown();
    }

    @Test
    void aPerKeyLimitOfOneKeepsEachKeysTasksApartAcrossNodes() throws Exception {
        AtomicInteger most = new AtomicInteger();
        AtomicInteger running = new AtomicInteger();
        TaskHandler<Integer> handler = (n, ctx) -> {
            long started = System.nanoTime();
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                Thread.sleep(20); // the task's work
            } finally {
                running.decrementAndGet();
                span(ctx.taskId(), ctx.attempt(), started, System.nanoTime(), keyOf(n));
            }
        };
        Errand[] nodes = new Errand[3];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = node(builder()
                    .nodeId("node-" + i)
                    .queue("default", 4)
                    .succeededRetention(Duration.ofDays(1))
                    .register(TaskDefinition.builder("customer-sync", Integer.class, handler)
                            .mode(ExecutionMode.NON_TRANSACTIONAL)
                            .concurrencyLimitPerKey(1)
                            .build()));
        }
        int tasks = 48;
        for (int i = 0; i < tasks; i++) {
            nodes[0].enqueue(
                    TaskRequest.builder("customer-sync", i).limitKey(keyOf(i)).build());
        }
        for (Errand node : nodes) {
            node.start();
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> tasksIn(TaskState.SUCCEEDED) == tasks);

        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "span a JOIN " + prefix + "span b ON a.limit_key ="
                        + " b.limit_key AND a.task_id < b.task_id AND a.started < b.ended AND b.started < a.ended"))
                .as("pairs of tasks of one key that overlapped")
                .isZero();
        assertThat(scalar("SELECT MAX(attempt) FROM " + prefix + "task")).isEqualTo(1);
        assertThat(scalar("SELECT COUNT(DISTINCT limit_key) FROM " + prefix + "task"))
                .isEqualTo(8);
    }

    @Test
    void aKeyHeldBackWithAThousandTasksLetsTheOtherKeysFlow() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger bigStarted = new AtomicInteger();
        Errand node = node(builder()
                .queue("default", 4)
                .succeededRetention(Duration.ofDays(1))
                .register(TaskDefinition.builder("customer-sync", String.class, (key, ctx) -> {
                            if (key.equals("big")) {
                                bigStarted.incrementAndGet();
                                release.await(30, TimeUnit.SECONDS);
                            }
                        })
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .concurrencyLimitPerKey(1)
                        .build()));
        java.util.List<TaskRequest> big = new java.util.ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            big.add(TaskRequest.builder("customer-sync", "big").limitKey("big").build());
        }
        node.enqueueAll(big);
        for (int i = 0; i < 40; i++) {
            node.enqueue(TaskRequest.builder("customer-sync", "small-" + i)
                    .limitKey("small-" + i)
                    .build());
        }
        node.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> tasksIn(TaskState.SUCCEEDED) == 40);
        assertThat(bigStarted.get()).as("tasks of the held key that started").isEqualTo(1);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task WHERE limit_key = 'big' AND state = 'pending'"
                        + " AND attempt = 0"))
                .isEqualTo(999);
        release.countDown();
    }

    @Test
    void heldBackTasksOfALimitedKindLetTheOtherKindsOfTheirQueueFlow() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger limitedStarted = new AtomicInteger();
        AtomicInteger others = new AtomicInteger();
        Errand node = node(builder()
                .queue("default", 4)
                .register(limited(1, (n, ctx) -> {
                    limitedStarted.incrementAndGet();
                    release.await(30, TimeUnit.SECONDS);
                }))
                .register(TaskDefinition.builder("other", Integer.class, (n, ctx) -> others.incrementAndGet())
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build()));
        java.util.List<TaskRequest> held = new java.util.ArrayList<>();
        for (int i = 0; i < 500; i++) {
            held.add(TaskRequest.of("partner-call", i));
        }
        node.enqueueAll(held);
        node.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> limitedStarted.get() == 1);
        // Enqueued after the held-back ones: behind them in the queue's claim order.
        for (int i = 0; i < 30; i++) {
            node.enqueue(TaskRequest.of("other", i));
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> others.get() == 30);
        assertThat(limitedStarted.get()).isEqualTo(1);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task WHERE kind = 'partner-call' AND state = 'pending'"
                        + " AND attempt = 0"))
                .isEqualTo(499);
        release.countDown();
    }

    @Test
    void aRateLimitStartsNoMoreThanItsStartsInAnyWindowAcrossNodes() throws Exception {
        Errand[] nodes = new Errand[3];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = node(builder()
                    .nodeId("node-" + i)
                    .queue("default", 4)
                    .succeededRetention(Duration.ofDays(1))
                    .register(TaskDefinition.builder("rated", Integer.class, (n, ctx) -> {})
                            .mode(ExecutionMode.NON_TRANSACTIONAL)
                            .rateLimit(4, Duration.ofSeconds(1))
                            .build()));
        }
        java.util.List<Long> ids = new java.util.ArrayList<>();
        for (int i = 0; i < 13; i++) {
            ids.add(nodes[0].enqueue(TaskRequest.of("rated", i)).id());
        }
        for (Errand node : nodes) {
            node.start();
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> tasksIn(TaskState.SUCCEEDED) == 13);
        java.util.List<java.time.Instant> starts = new java.util.ArrayList<>();
        for (long id : ids) {
            assertThat(task(nodes[0], id).attempt()).isEqualTo(1);
            starts.add(task(nodes[0], id).startedAt());
        }
        starts.sort(null);
        for (int i = 0; i < starts.size(); i++) {
            java.time.Instant end = starts.get(i).plusSeconds(1);
            long window = 0;
            for (java.time.Instant t : starts) {
                if (!t.isBefore(starts.get(i)) && t.isBefore(end)) {
                    window++;
                }
            }
            assertThat(window).as("starts in the second from %s", starts.get(i)).isLessThanOrEqualTo(4);
        }
        assertThat(Duration.between(starts.get(0), starts.get(12)))
                .as("the 13th start uses a slot for the 4th time")
                .isGreaterThanOrEqualTo(Duration.ofSeconds(3));
        assertThatThrownBy(() -> TaskDefinition.builder("rated", Integer.class, (n, ctx) -> {})
                        .rateLimit(4, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("period of a rate limit must be between 1 ms and 24 h");
        assertThatThrownBy(() -> TaskDefinition.builder("rated", Integer.class, (n, ctx) -> {})
                        .rateLimit(0, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 1 and 10000");
    }

    @Test
    void aBadLimitKeyOrTwoLimitsOnOneKindAreRefused() {
        assertThatThrownBy(() -> TaskRequest.builder("customer-sync", 1).limitKey("k".repeat(201)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limitKey")
                .hasMessageContaining("200");
        assertThatThrownBy(() -> TaskRequest.builder("customer-sync", 1).limitKey(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limitKey");
        assertThatThrownBy(() -> TaskRequest.builder("customer-sync", 1).limitKey(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limitKey");
        assertThatThrownBy(() -> TaskDefinition.builder("customer-sync", Integer.class, (n, ctx) -> {})
                        .concurrencyLimitPerKey(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("concurrencyLimitPerKey of kind 'customer-sync'");
        assertThatThrownBy(() -> TaskDefinition.builder("customer-sync", Integer.class, (n, ctx) -> {})
                        .concurrencyLimit(2)
                        .concurrencyLimitPerKey(1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has two of concurrencyLimit");
    }

    @Test
    void aLimitChangedAtRunTimeAppliesOnEveryNodeAndTheAdminShowsItsUse() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger started = new AtomicInteger();
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        TaskHandler<Integer> holding = (n, ctx) -> {
            long start = System.nanoTime();
            started.incrementAndGet();
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                release.await(30, TimeUnit.SECONDS);
            } finally {
                running.decrementAndGet();
                span(ctx.taskId(), ctx.attempt(), start, System.nanoTime());
            }
        };
        Errand[] nodes = new Errand[2];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = node(builder().nodeId("node-" + i).queue("default", 4).register(limited(1, holding)));
        }
        for (int i = 0; i < 6; i++) {
            nodes[0].enqueue(TaskRequest.of("partner-call", i));
        }
        nodes[0].start();
        nodes[1].start();
        await().atMost(Duration.ofSeconds(10)).until(() -> started.get() == 1);
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(nodes[1].flow().limits().get(0).waiting())
                        .as("%s", nodes[1].flow().limits())
                        .isEqualTo(5));
        FlowLimit before = nodes[1].flow().limits().get(0);
        assertThat(before.kind()).isEqualTo("partner-call");
        assertThat(before.concurrency()).isEqualTo(new FlowLimit.Value(1, null));
        assertThat(before.perKey().inForce()).isNull();
        assertThat(before.slotsInUse()).isEqualTo(1);

        nodes[0].flow().changeLimit("partner-call", 3);
        await().atMost(Duration.ofSeconds(10)).until(() -> started.get() == 3);
        FlowLimit raised = nodes[1].flow().limits().get(0);
        assertThat(raised.concurrency().inForce()).isEqualTo(3);
        assertThat(raised.concurrency().declared()).isEqualTo(1);
        assertThat(raised.slotsInUse()).isEqualTo(3);
        assertThat(raised.waiting()).isEqualTo(3);

        nodes[1].flow().resetLimits("partner-call");
        assertThat(nodes[0].flow().limits().get(0).concurrency()).isEqualTo(new FlowLimit.Value(1, null));
        release.countDown();
        await().atMost(Duration.ofSeconds(30)).until(() -> taskRows() == 0);
        assertThat(most.get()).isEqualTo(3);
        assertThat(maxOverlap()).isEqualTo(3);

        assertThatThrownBy(() -> nodes[0].flow().changeLimit("no-such-kind", 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'no-such-kind' is not registered");
        assertThatThrownBy(() -> nodes[0].flow().changeLimit("partner-call", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 1 and 10000");
        assertThatThrownBy(() -> nodes[0].flow().changeLimitPerKey("partner-call", 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has a concurrency limit in force");
        assertThatThrownBy(() -> nodes[0].flow().changeLimit(" bad", 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aLimitOutsideItsRangeIsRefusedWithWhatToDo() {
        for (int bad : new int[] {0, -1, 10_001}) {
            assertThatThrownBy(() -> TaskDefinition.builder("partner-call", Integer.class, (n, ctx) -> {})
                            .concurrencyLimit(bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("concurrencyLimit of kind 'partner-call'")
                    .hasMessageContaining("between 1 and 10000")
                    .hasMessageContaining("got " + bad);
        }
    }
}
