package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.history.Throughput;
import dev.errand.retry.RetryPolicy;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code HistoryAdmin.nodeThroughput}: attempts ended per minute without the attempt history, from the counts each
 * node keeps in memory and adds to {@code node_throughput} at its heartbeat, summed over the nodes, on a real
 * database.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class NodeThroughputContractTest extends ErrandTestSupport {

    NodeThroughputContractTest(Target target) {
        super(target);
    }

    private Errand node() {
        return node(builder()
                .historyEnabled(false)
                .heartbeatInterval(Duration.ofMillis(300))
                .register(TaskDefinition.builder("ok", Integer.class, (n, ctx) -> {})
                        .build())
                .register(TaskDefinition.builder("plain-ok", Integer.class, (n, ctx) -> {})
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build())
                .register(TaskDefinition.builder("flaky", Integer.class, (n, ctx) -> {
                            if (ctx.attempt() < 2) {
                                throw new IllegalStateException("not yet");
                            }
                        })
                        .retryPolicy(RetryPolicy.fixed(Duration.ZERO))
                        .maxAttempts(2)
                        .build())
                .register(TaskDefinition.builder("doomed", Integer.class, (n, ctx) -> {
                            throw new IllegalArgumentException("never");
                        })
                        .maxAttempts(1)
                        .build()));
    }

    private static long[] sums(Throughput throughput) {
        long[] sums = new long[3];
        for (Throughput.Bucket bucket : throughput.buckets()) {
            sums[0] += bucket.succeeded();
            sums[1] += bucket.failed();
            sums[2] += bucket.retried();
        }
        return sums;
    }

    private void insertRow(String node, long minute, long succeeded) throws SQLException {
        try (Connection c = dataSource().getConnection();
                PreparedStatement s = c.prepareStatement("INSERT INTO " + prefix + "node_throughput"
                        + " (node_id, minute_at, succeeded, failed, retried) VALUES (?, ?, ?, 0, 0)")) {
            s.setString(1, node);
            s.setLong(2, minute);
            s.setLong(3, succeeded);
            s.executeUpdate();
        }
    }

    @Test
    void countsPerMinuteWithoutTheHistorySummedOverNodesAndForgetsOldMinutes() throws Exception {
        Errand errand = node();
        long minute = databaseNow().plus(clock.offset()).getEpochSecond() / 60;
        insertRow("gone-long-ago", minute - 180, 7);
        insertRow("other-node", minute, 2);
        errand.start();
        for (int i = 0; i < 3; i++) {
            errand.enqueue(TaskRequest.of("ok", i));
        }
        errand.enqueue(TaskRequest.of("plain-ok", 9));
        errand.enqueue(TaskRequest.of("flaky", 1));
        errand.enqueue(TaskRequest.of("doomed", 2));

        // Succeeded: 3 + 1 + the flaky task's second attempt, and the other node's 2; failed for good: the doomed
        // one; retried: flaky's first. Written with the heartbeat, so it shows within an interval.
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(sums(errand.history().nodeThroughput(Duration.ofHours(1))))
                        .containsExactly(7, 1, 1));
        assertThat(errand.history().throughput(Duration.ofHours(1), Duration.ofMinutes(1)))
                .as("the attempt history is off")
                .isEmpty();
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "node_throughput WHERE node_id = 'gone-long-ago'"))
                .as("minutes older than two hours are deleted as the nodes write")
                .isZero();
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "node_throughput WHERE node_id = '"
                        + errand.settings().nodeId() + "'"))
                .as("one row per node and minute: at most the minute it started in and the next")
                .isBetween(1L, 2L);

        Throughput hour = errand.history().nodeThroughput(Duration.ofHours(1));
        assertThat(hour.buckets()).hasSize(60);
        assertThat(hour.bucket()).isEqualTo(Duration.ofMinutes(1));
        assertThat(hour.buckets().get(59).start().getEpochSecond() % 60).isZero();
        assertThat(hour.buckets().get(59).start()).isBeforeOrEqualTo(hour.databaseTime());

        // Nothing more ends: no write, the sums stay.
        long rowsBefore = scalar("SELECT SUM(succeeded) FROM " + prefix + "node_throughput");
        assertThat(sums(errand.history().nodeThroughput(Duration.ofMinutes(5)))).containsExactly(7, 1, 1);
        assertThat(scalar("SELECT SUM(succeeded) FROM " + prefix + "node_throughput"))
                .isEqualTo(rowsBefore);

        // Two hours later on the database clock the window has moved past them.
        clock.advance(Duration.ofHours(2));
        assertThat(sums(errand.history().nodeThroughput(Duration.ofHours(2)))).containsExactly(0, 0, 0);
    }

    @Test
    void aSchemaWithoutTheTableStillRunsTasksAndStaysHealthy() throws Exception {
        Errand errand = node();
        try (Connection c = dataSource().getConnection();
                java.sql.Statement s = c.createStatement()) {
            // A schema kept by its own DDL, without migration 19.
            s.execute("DROP TABLE " + prefix + "node_throughput");
        }
        errand.start();
        errand.enqueue(TaskRequest.of("ok", 1));
        await().atMost(Duration.ofSeconds(20)).until(() -> errand.stats().succeeded() == 1);
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).until(() -> errand.health()
                .healthy());
    }

    @Test
    void badWindowsAreRefused() {
        Errand errand = node();
        for (Duration bad : new Duration[] {
            null,
            Duration.ZERO,
            Duration.ofSeconds(30),
            Duration.ofSeconds(90),
            Duration.ofHours(3),
            Duration.ofMillis(60_500)
        }) {
            assertThatThrownBy(() -> errand.history().nodeThroughput(bad))
                    .as("%s", bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("1 minute to 2 hours");
        }
    }
}
