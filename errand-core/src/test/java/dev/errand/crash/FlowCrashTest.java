package dev.errand.crash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Spans;
import dev.errand.testing.Target;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Flow limits across real processes on PostgreSQL and MariaDB: three node JVMs run a kind with a concurrency
 * limit of 3 and a kind with a per-key limit of 1 over 10 keys; one JVM is killed with SIGKILL while it runs
 * tasks (holding their slots), and a fourth starts. Every attempt wrote its span; the most that overlapped, computed in SQL, stays
 * within the limit, and no two attempts of one key overlap. An attempt killed with its JVM ended at the kill.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#servers")
class FlowCrashTest extends ErrandTestSupport {

    FlowCrashTest(Target target) {
        super(target);
    }

    private CrashChild child(String nodeId, long workMillis) throws Exception {
        CrashChild child = CrashChild.startMain(
                FlowNodeMain.class,
                "128m",
                nodeId,
                database.url(),
                database.userName(),
                prefix,
                nodeId,
                Long.toString(workMillis));
        child.awaitLine(FlowNodeMain.READY, Duration.ofSeconds(60));
        return child;
    }

    /** The table every attempt of the node JVMs writes its span to. */
    private void createSpanTable() throws Exception {
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + prefix + "span (task_id BIGINT NOT NULL, attempt INT NOT NULL,"
                    + " node_id VARCHAR(50) NOT NULL, limit_key VARCHAR(200), started BIGINT NOT NULL, ended BIGINT)");
        }
    }

    @Test
    void limitsHoldAcrossNodeJvmsAndASigkill() throws Exception {
        createSpanTable();
        // Creates the tables; it does not process.
        Errand enqueuer = node(builder().processingEnabled(false));
        List<TaskRequest> requests = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            requests.add(TaskRequest.of("limited", "l" + i));
            String key = "customer-" + (i % 10);
            requests.add(TaskRequest.builder("keyed", key).limitKey(key).build());
        }
        enqueuer.enqueueAll(requests);
        List<CrashChild> children = new ArrayList<>();
        try {
            // The victim's attempts take 30 s: killed after its first start, it dies holding slots.
            children.add(child("node-0", 30_000));
            for (int i = 1; i < 3; i++) {
                children.add(child("node-" + i, 100));
            }
            CrashChild victim = children.get(0);
            victim.awaitLine(FlowNodeMain.RAN, Duration.ofSeconds(60));
            assertThat(victim.killHard(Duration.ofSeconds(10))).isEqualTo(CrashChild.SIGKILL_EXIT_STATUS);
            long killedAt = FlowNodeMain.micros();
            children.add(child("node-3", 100));
            await().atMost(Duration.ofSeconds(120)).until(() -> taskRows() == 0);

            String spans = "(SELECT task_id, limit_key, started, COALESCE(ended, " + killedAt + ") AS ended FROM "
                    + prefix + "span WHERE " + "%s) ";
            String limited = String.format(spans, "limit_key IS NULL");
            assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "span WHERE limit_key IS NULL"))
                    .isGreaterThanOrEqualTo(60);
            assertThat(scalar("SELECT MAX(open_spans) FROM (SELECT (SELECT COUNT(*) FROM " + limited
                            + "b WHERE b.started <= a.started AND b.ended > a.started) AS open_spans FROM " + limited
                            + "a) spans_at_start"))
                    .as("attempts of the limited kind running at once")
                    .isBetween(1L, 3L);
            String keyed = String.format(spans, "limit_key IS NOT NULL");
            assertThat(scalar("SELECT COUNT(*) FROM " + keyed + "a JOIN " + keyed + "b ON a.limit_key = b.limit_key"
                            + " AND a.task_id < b.task_id AND a.started < b.ended AND b.started < a.ended"))
                    .as("pairs of attempts of one key that overlapped")
                    .isZero();
            assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "span WHERE ended IS NULL"))
                    .as("attempts killed with their JVM, their slots freed by the dead-node sweep")
                    .isBetween(1L, 4L);
        } finally {
            for (CrashChild child : children) {
                child.destroy();
            }
        }
    }

    /**
     * Fast tasks make chains: a claim takes several tasks for one slot, which the node runs one after another. The
     * victim is killed in the middle of its chains, with tasks of them still unstarted; the dead-node sweep rescues
     * them, which frees their slots, and the others run them. Nothing is lost, and the limits hold throughout.
     */
    @Test
    void chainsOfFastTasksHoldTheLimitsAcrossASigkill() throws Exception {
        createSpanTable();
        Errand enqueuer = node(builder().processingEnabled(false));
        List<TaskRequest> requests = new ArrayList<>();
        for (int i = 0; i < 800; i++) {
            requests.add(TaskRequest.of("limited", "l" + i));
            String key = "customer-" + (i % 10);
            requests.add(TaskRequest.builder("keyed", key).limitKey(key).build());
        }
        enqueuer.enqueueAll(requests);
        List<CrashChild> children = new ArrayList<>();
        long chainsSeen = 0;
        try {
            for (int i = 0; i < 3; i++) {
                children.add(child("node-" + i, 2));
            }
            await().atMost(Duration.ofSeconds(120))
                    .until(() -> scalar("SELECT COUNT(*) FROM " + prefix + "span WHERE node_id = 'node-0'") >= 150);
            chainsSeen = scalar("SELECT COUNT(*) FROM " + prefix + "flow_slot WHERE chain_ids IS NOT NULL")
                    + scalar("SELECT COUNT(*) FROM " + prefix + "flow_key_slot WHERE chain_ids IS NOT NULL");
            assertThat(children.get(0).killHard(Duration.ofSeconds(10))).isEqualTo(CrashChild.SIGKILL_EXIT_STATUS);
            long killedAt = FlowNodeMain.micros();
            children.add(child("node-3", 2));
            await().atMost(Duration.ofSeconds(180)).until(() -> taskRows() == 0);

            List<long[]> limited = new ArrayList<>();
            java.util.Map<String, List<long[]>> byKey = new java.util.HashMap<>();
            java.util.Set<Long> ran = new java.util.HashSet<>();
            try (Connection c = dataSource().getConnection();
                    Statement s = c.createStatement();
                    java.sql.ResultSet r =
                            s.executeQuery("SELECT task_id, limit_key, started, ended FROM " + prefix + "span")) {
                while (r.next()) {
                    long ended = r.getLong(4);
                    long[] span = {r.getLong(3), r.wasNull() ? killedAt : ended};
                    ran.add(r.getLong(1));
                    String key = r.getString(2);
                    if (key == null) {
                        limited.add(span);
                    } else {
                        byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(span);
                    }
                }
            }
            assertThat(ran).as("every task ran").hasSize(1_600);
            assertThat(Spans.mostAtOnce(limited))
                    .as("attempts of the limited kind running at once")
                    .isBetween(1, 3);
            for (java.util.Map.Entry<String, List<long[]>> key : byKey.entrySet()) {
                assertThat(Spans.mostAtOnce(key.getValue()))
                        .as("attempts of key %s running at once", key.getKey())
                        .isEqualTo(1);
            }
            assertThat(chainsSeen)
                    .as("slots held by chains of several tasks when the victim died")
                    .isPositive();
        } finally {
            for (CrashChild child : children) {
                child.destroy();
            }
        }
    }
}
