package dev.errand.spring.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.internal.node.Nodes;
import dev.errand.spring.ErrandClient;
import dev.errand.spring.ErrandLifecycle;
import dev.errand.spring.ErrandTask;
import dev.errand.spring.TaskStatistics;
import dev.errand.spring.testing.PostgresTables;
import dev.errand.task.TaskContext;
import dev.errand.task.TaskHandler;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.health.registry.HealthContributorRegistry;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.AbstractDataSource;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ContextConfiguration;

/**
 * The health indicator, the endpoint, the counters, the timer and the gauges exist and move as tasks
 * run, fail, wait and are rescued, on PostgreSQL. One worker, so that a blocked task keeps others waiting.
 */
@SpringBootTest(
        classes = ObservabilityTest.App.class,
        properties = {
            "errand.poll-interval=100ms", "errand.queues.default.concurrency=1", "errand.shutdown-timeout=2s",
            "errand.stats.cache-duration=0s", "errand.stats.overdue-after=1s", "errand.node-id=observed-node",
            "management.endpoints.web.exposure.include=health,errand", "errand.history-enabled=true"
        })
@ContextConfiguration(initializers = PostgresTables.class)
@DirtiesContext
class ObservabilityTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration(
            excludeName = {
                "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration",
                "org.springframework.boot.data.jpa.autoconfigure.DataJpaRepositoriesAutoConfiguration"
            })
    @Import({Quick.class, Fails.class, Slow.class})
    static class App {}

    @ErrandTask("quick")
    static class Quick implements TaskHandler<Void> {
        @Override
        public void handle(Void payload, TaskContext context) {}
    }

    @ErrandTask(value = "fails", maxAttempts = 2, retry = ErrandTask.Retry.FIXED, retryDelay = "50ms")
    static class Fails implements TaskHandler<Void> {
        @Override
        public void handle(Void payload, TaskContext context) {
            throw new IllegalStateException("always fails");
        }
    }

    @ErrandTask("slow")
    static class Slow implements TaskHandler<Void> {
        static final CountDownLatch STARTED = new CountDownLatch(1);
        static final CountDownLatch RELEASE = new CountDownLatch(1);

        @Override
        public void handle(Void payload, TaskContext context) throws InterruptedException {
            STARTED.countDown();
            RELEASE.await(30, TimeUnit.SECONDS);
        }
    }

    @Autowired
    ErrandClient client;

    @Autowired
    Errand errand;

    @Autowired
    MeterRegistry registry;

    @Autowired
    HealthContributorRegistry healthContributors;

    @Autowired
    ErrandEndpoint endpoint;

    @Autowired
    JdbcTemplate jdbc;

    @Value("${errand.table-prefix}")
    String prefix;

    @Test
    void countersAndTheTimerMoveAsTasksRunFailAndAreRescued() {
        // Deltas: the other tests of this class share the context and its meters.
        double enqueued = count("errand.tasks.enqueued", "quick");
        double started = count("errand.tasks.started", "quick");
        double succeeded = count("errand.tasks.succeeded", "quick");
        long timed = timerCount("quick");
        double failsStarted = count("errand.tasks.started", "fails");
        double failsRetried = count("errand.tasks.retried", "fails");
        double failsFailed = count("errand.tasks.failed", "fails");
        double rescued = count("errand.tasks.rescued", "quick");

        client.enqueue("quick", null);
        client.enqueue("quick", null);
        long failing = client.enqueue("fails", null).id();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> count("errand.tasks.succeeded", "quick") == succeeded + 2
                        && errand.admin()
                                .find(failing)
                                .map(t -> t.state().dbValue().equals("failed"))
                                .orElse(false));

        assertThat(count("errand.tasks.enqueued", "quick")).isEqualTo(enqueued + 2);
        assertThat(count("errand.tasks.started", "quick")).isEqualTo(started + 2);
        assertThat(timerCount("quick")).isEqualTo(timed + 2);
        assertThat(count("errand.tasks.started", "fails")).isEqualTo(failsStarted + 2);
        assertThat(count("errand.tasks.retried", "fails")).isEqualTo(failsRetried + 1);
        assertThat(count("errand.tasks.failed", "fails")).isEqualTo(failsFailed + 1);

        // A task whose worker vanished: running, with a lease that expired a minute ago.
        jdbc.update("INSERT INTO " + prefix + "task (kind, queue, state, attempt, max_attempts, lease_owner,"
                + " lease_token, lease_expires_at, started_at) VALUES ('quick', 'default', 'running', 1, 3,"
                + " 'vanished-node', 42, now() - interval '1 minute', now() - interval '2 minutes')");
        assertThat(endpoint.errand().nodes()).containsExactlyInAnyOrder("vanished-node", "observed-node");
        assertThat(Nodes.of(errand).rescueExpiredLeases()).isEqualTo(1);
        assertThat(count("errand.tasks.rescued", "quick")).isEqualTo(rescued + 1);
        await().atMost(Duration.ofSeconds(10)).until(() -> count("errand.tasks.succeeded", "quick") == succeeded + 3);
    }

    @Test
    void gaugesHealthAndEndpointFollowTheQueue() throws Exception {
        HealthIndicator health = (HealthIndicator) healthContributors.getContributor("errand");
        assertThat(health).as("registered as 'errand'").isInstanceOf(ErrandHealthIndicator.class);
        assertThat(health.health().getStatus()).isEqualTo(Status.UP);
        long failedBefore = (Long) health.health().getDetails().get("failedTasks");

        client.enqueue("slow", null);
        assertThat(Slow.STARTED.await(10, TimeUnit.SECONDS)).isTrue();
        for (int i = 0; i < 3; i++) {
            client.enqueue("quick", null);
        }
        long failing = client.enqueue("fails", null).id();
        try {
            // The one worker is busy: the others wait, and soon count as overdue (errand.stats.overdue-after=1s).
            await().atMost(Duration.ofSeconds(10)).until(() -> gauge("errand.queue.depth") == 4);
            await().atMost(Duration.ofSeconds(10)).until(() -> gauge("errand.queue.lag") >= 1.0);
            Health waiting = health.health();
            assertThat(waiting.getStatus()).isEqualTo(Status.UP);
            assertThat((Long) waiting.getDetails().get("overdueTasks")).isEqualTo(4);
            assertThat(waiting.getDetails())
                    .containsEntry("database", "reachable")
                    .containsEntry("running", true)
                    .containsEntry("nodeId", "observed-node");

            ErrandEndpoint.ErrandDescriptor described = endpoint.errand();
            assertThat(described.node().id()).isEqualTo("observed-node");
            assertThat(described.node().dialect()).isEqualTo("postgresql");
            assertThat(described.queues().get("default").getConcurrency()).isEqualTo(1);
            assertThat(described.queues().get("default").getDue()).isEqualTo(4);
            assertThat(described.states()).containsEntry("running", 1L).containsEntry("pending", 4L);
            assertThat(described.kinds().get("slow").getStates()).containsEntry("running", 1L);
            assertThat(described.kinds().get("slow").isRegistered()).isTrue();
            assertThat(described.kinds().get("quick").getStates()).containsEntry("pending", 3L);
            assertThat(described.nodes()).containsExactly("observed-node");
            // The node registry: this node, alive and processing.
            assertThat(described.cluster()).singleElement().satisfies(node -> {
                assertThat(node.nodeId()).isEqualTo("observed-node");
                assertThat(node.alive()).isTrue();
                assertThat(node.processing()).isTrue();
            });
        } finally {
            Slow.RELEASE.countDown();
        }
        await().atMost(Duration.ofSeconds(10))
                .until(() -> gauge("errand.queue.depth") == 0
                        && errand.admin()
                                .find(failing)
                                .map(t -> t.state().dbValue().equals("failed"))
                                .orElse(false));
        assertThat(gauge("errand.queue.lag")).isZero();
        assertThat((Long) health.health().getDetails().get("failedTasks")).isEqualTo(failedBefore + 1);

        ErrandEndpoint.TaskHistory history = endpoint.task(failing);
        assertThat(history.task().state().dbValue()).isEqualTo("failed");
        assertThat(history.attempts())
                .extracting(attempt -> attempt.outcome().dbValue())
                .containsExactly("retried", "failed");
        assertThat(history.attempts().get(1).error().message()).isEqualTo("always fails");
    }

    @Test
    void healthIsDownWhenTheDatabaseIsUnreachableOrTheEngineDoesNotRunOrKeepsFailing() {
        AtomicBoolean refuse = new AtomicBoolean();
        DataSource switchable = new AbstractDataSource() {
            @Override
            public Connection getConnection() throws SQLException {
                if (refuse.get()) {
                    throw new SQLException("connection refused", "08001");
                }
                return jdbc.getDataSource().getConnection();
            }

            @Override
            public Connection getConnection(String user, String password) throws SQLException {
                return getConnection();
            }
        };
        Errand node = Errand.builder(switchable)
                .tablePrefix(prefix)
                .migrationsEnabled(false)
                .pollInterval(Duration.ofMillis(50))
                .build();
        TaskStatistics statistics = new TaskStatistics(node.admin(), Duration.ZERO, Duration.ofMinutes(5));
        ErrandHealthIndicator indicator = new ErrandHealthIndicator(node, statistics);
        TaskStatistics readable = new TaskStatistics(errand.admin(), Duration.ZERO, Duration.ofMinutes(5));
        assertThat(indicator.health().getStatus()).as("not started").isEqualTo(Status.DOWN);

        ErrandLifecycle lifecycle = new ErrandLifecycle(node);
        lifecycle.start();
        try {
            assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);

            refuse.set(true);
            Health down = indicator.health();
            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat(down.getDetails()).containsEntry("database", "unreachable");

            // The poller fails on every poll; after a few failures the node itself reports the problem,
            // which turns health DOWN even when the table can be read (here through another node's admin).
            await().atMost(Duration.ofSeconds(10)).until(() -> !node.health().healthy());
            Health failing = new ErrandHealthIndicator(node, readable).health();
            assertThat(failing.getStatus()).isEqualTo(Status.DOWN);
            assertThat(failing.getDetails())
                    .containsEntry("database", "reachable")
                    .containsKey("problems");
            assertThat(failing.getDetails().get("problems").toString()).contains("connection refused");

            refuse.set(false);
            await().atMost(Duration.ofSeconds(10)).until(() -> node.health().healthy());
            assertThat(indicator.health().getStatus()).as("recovered").isEqualTo(Status.UP);
        } finally {
            refuse.set(false);
            lifecycle.stop();
        }
        assertThat(lifecycle.isRunning()).isFalse();
        assertThat(indicator.health().getStatus()).as("stopped").isEqualTo(Status.DOWN);
    }

    private double count(String name, String kind) {
        var counter = registry.find(name).tags("kind", kind, "queue", "default").counter();
        return counter == null ? 0 : counter.count();
    }

    private long timerCount(String kind) {
        var timer = registry.find("errand.tasks.execution")
                .tags("kind", kind, "queue", "default")
                .timer();
        return timer == null ? 0 : timer.count();
    }

    private double gauge(String name) {
        var gauge = registry.find(name).tags("queue", "default");
        return name.endsWith("lag")
                ? gauge.timeGauge().value(TimeUnit.SECONDS)
                : gauge.gauge().value();
    }
}
