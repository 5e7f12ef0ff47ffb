package dev.errand.crash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.schedule.Schedule;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import dev.errand.testkit.TestDatabase;
import dev.errand.workflow.Workflow;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A PostgreSQL failover under load: a primary with a synchronous standby of the test's own, a node on the multi-host
 * URL ({@code targetServerType=primary}) running transactional and non-transactional tasks, a workflow and a
 * schedule; the primary's postmaster is killed with SIGKILL and the standby promoted. Every task reaches its end,
 * no transactional effect is applied twice, none is lost, the node leads again, and the time from the kill to the
 * first task run on the new primary is printed.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class FailoverTest {

    /** Tasks of each mode; {@code scripts/failover-run.sh} raises it with {@code -Derrand.failover.tasks}. */
    private static final int TX_TASKS = Integer.getInteger("errand.failover.tasks", 1_000);

    private static final int PLAIN_TASKS = TX_TASKS;
    private static final int WORKFLOWS = Math.max(10, TX_TASKS / 40);

    @Test
    void aKilledPrimaryAndAPromotedStandbyLoseNothingAndApplyNoEffectTwice() throws Exception {
        Assumptions.assumeTrue(
                TestDatabase.selected().contains(TestDatabase.POSTGRES), "PostgreSQL is not among the databases");
        try (ReplicatedPostgres pair = new ReplicatedPostgres(freePort(), freePort())) {
            Assumptions.assumeTrue(pair.available(), "needs PostgreSQL's binaries and root, as in CI");
            pair.start();
            try (Connection c = DriverManager.getConnection(pair.url(), "postgres", "");
                    Statement s = c.createStatement()) {
                s.execute("CREATE TABLE failover_effect (task_id BIGINT NOT NULL)");
            }
            Map<Long, AtomicInteger> plainRuns = new ConcurrentHashMap<>();
            AtomicLong lastStart = new AtomicLong();
            AtomicInteger ticks = new AtomicInteger();
            AtomicInteger steps = new AtomicInteger();
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(pair.url());
            config.setUsername("postgres");
            config.setPassword("");
            config.setMaximumPoolSize(16);
            config.setConnectionTimeout(5_000);
            try (HikariDataSource pool = new HikariDataSource(config)) {
                Errand errand = Errand.builder(pool)
                        .tablePrefix("fo_")
                        .nodeId("failover-node")
                        .pollInterval(Duration.ofMillis(100))
                        .heartbeatInterval(Duration.ofMillis(500))
                        .leaseDuration(Duration.ofSeconds(5))
                        .rescueInterval(Duration.ofMillis(500))
                        .succeededRetention(Duration.ofHours(1))
                        .register(TaskDefinition.builder("fo-tx", Long.class, (n, ctx) -> {
                                    lastStart.set(System.nanoTime());
                                    try (PreparedStatement insert = ctx.connection()
                                            .prepareStatement("INSERT INTO failover_effect (task_id) VALUES (?)")) {
                                        insert.setLong(1, ctx.taskId());
                                        insert.executeUpdate();
                                    }
                                })
                                .mode(ExecutionMode.TRANSACTIONAL)
                                .build())
                        .register(TaskDefinition.builder("fo-plain", Long.class, (n, ctx) -> {
                                    lastStart.set(System.nanoTime());
                                    plainRuns
                                            .computeIfAbsent(ctx.taskId(), id -> new AtomicInteger())
                                            .incrementAndGet();
                                })
                                .mode(ExecutionMode.NON_TRANSACTIONAL)
                                .build())
                        .register(TaskDefinition.builder("fo-step", Long.class, (n, ctx) -> steps.incrementAndGet())
                                .mode(ExecutionMode.TRANSACTIONAL)
                                .build())
                        .register(TaskDefinition.builder("fo-tick", Long.class, (n, ctx) -> ticks.incrementAndGet())
                                .mode(ExecutionMode.NON_TRANSACTIONAL)
                                .build())
                        .schedule(Schedule.every("fo-every-second", "fo-tick", Duration.ofSeconds(1))
                                .payload(1L)
                                .build())
                        .build();
                try {
                    List<TaskRequest> requests = new ArrayList<>();
                    for (long i = 0; i < Math.max(TX_TASKS, PLAIN_TASKS); i++) {
                        if (i < TX_TASKS) {
                            requests.add(TaskRequest.of("fo-tx", i));
                        }
                        if (i < PLAIN_TASKS) {
                            requests.add(TaskRequest.of("fo-plain", i));
                        }
                    }
                    errand.enqueueAll(requests);
                    for (long w = 0; w < WORKFLOWS; w++) {
                        errand.enqueueWorkflow(Workflow.builder()
                                .step("a", TaskRequest.of("fo-step", w))
                                .step("b", TaskRequest.of("fo-step", w), "a")
                                .step("c", TaskRequest.of("fo-step", w), "b")
                                .build());
                    }
                    errand.start();
                    await().atMost(Duration.ofSeconds(60)).until(() -> effects(pair.url()) >= TX_TASKS / 4);

                    long killed = System.nanoTime();
                    pair.killPrimary();
                    pair.promoteStandby();
                    long promoted = System.nanoTime();
                    await().atMost(Duration.ofSeconds(60)).until(() -> lastStart.get() > promoted);
                    long firstRun = lastStart.get();

                    await().atMost(Duration.ofSeconds(120))
                            .pollInterval(Duration.ofMillis(250))
                            .until(() -> unfinished(pair.standbyUrl()) == 0
                                    && plainRuns.size() == PLAIN_TASKS
                                    && steps.get() >= 3 * WORKFLOWS);
                    await().atMost(Duration.ofSeconds(30)).until(errand::isLeader);
                    int ticksAfter = ticks.get();
                    await().atMost(Duration.ofSeconds(10)).until(() -> ticks.get() > ticksAfter);

                    try (Connection c = DriverManager.getConnection(pair.standbyUrl(), "postgres", "");
                            Statement s = c.createStatement()) {
                        assertThat(scalar(s, "SELECT count(*) FROM failover_effect"))
                                .as("no transactional effect twice")
                                .isEqualTo(TX_TASKS);
                        assertThat(scalar(s, "SELECT count(DISTINCT task_id) FROM failover_effect"))
                                .as("no transactional effect lost")
                                .isEqualTo(TX_TASKS);
                        assertThat(scalar(s, "SELECT count(*) FROM fo_task WHERE state = 'failed'"))
                                .isZero();
                        long spent = scalar(
                                s,
                                "SELECT count(*) FROM fo_task WHERE state = 'succeeded' AND attempt > 1"
                                        + " AND kind IN ('fo-tx', 'fo-plain', 'fo-step')");
                        long rerun = plainRuns.values().stream()
                                .filter(runs -> runs.get() > 1)
                                .count();
                        System.out.printf(
                                "[failover] kill to promoted %d ms; kill to first task run on the new primary %d ms;"
                                        + " tasks that spent an attempt on the failover: %d; non-transactional"
                                        + " tasks run twice: %d%n",
                                TimeUnit.NANOSECONDS.toMillis(promoted - killed),
                                TimeUnit.NANOSECONDS.toMillis(firstRun - killed),
                                spent,
                                rerun);
                        // An attempt in flight when the primary died is lost with it and counted; no more than
                        // the node had claimed at that moment (its queue's concurrency and prefetch).
                        assertThat(spent).isLessThanOrEqualTo(1_000);
                    }
                } finally {
                    errand.stop(Duration.ofSeconds(10));
                }
            }
        }
    }

    private static long effects(String url) {
        try (Connection c = DriverManager.getConnection(url, "postgres", "");
                Statement s = c.createStatement()) {
            return scalar(s, "SELECT count(*) FROM failover_effect");
        } catch (java.sql.SQLException e) {
            return -1;
        }
    }

    private static long unfinished(String url) {
        try (Connection c = DriverManager.getConnection(url, "postgres", "");
                Statement s = c.createStatement()) {
            return scalar(
                    s,
                    "SELECT count(*) FROM fo_task WHERE state NOT IN ('succeeded', 'failed', 'cancelled')"
                            + " AND kind <> 'fo-tick'");
        } catch (java.sql.SQLException e) {
            return -1;
        }
    }

    private static long scalar(Statement s, String sql) throws java.sql.SQLException {
        try (ResultSet row = s.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        }
    }

    private static int freePort() throws java.io.IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
