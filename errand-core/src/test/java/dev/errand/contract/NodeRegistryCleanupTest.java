package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.ErrandBuilder;
import dev.errand.config.NodeIds;
import dev.errand.node.NodeInfo;
import dev.errand.node.NodeState;
import dev.errand.testing.CountingDataSource;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The registry clean-up, on every database: the leader deletes the rows of stopped and dead nodes once they
 * have been gone longer than the node retention on the database clock (the test moves the shared test clock
 * past it), keeps them before, and never deletes a running node's row; a stable node id from the host takes
 * its row back at a restart instead of adding one.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class NodeRegistryCleanupTest extends ErrandTestSupport {

    NodeRegistryCleanupTest(Target target) {
        super(target);
    }

    private ErrandBuilder fast(String nodeId) {
        return builder().nodeId(nodeId).pruneInterval(Duration.ofSeconds(1)).nodeRetention(Duration.ofMinutes(10));
    }

    /** How many node-pruner statements the leader's pruner thread has run. */
    private static long prunes(CountingDataSource db, String table) {
        return db.transactions(thread -> thread.endsWith("-pruner")).stream()
                .flatMap(t -> t.statements().stream())
                .filter(sql -> sql.startsWith("DELETE FROM " + table + " WHERE state IN"))
                .count();
    }

    private List<String> nodeIds(Errand errand) {
        return errand.cluster().nodes().stream().map(NodeInfo::nodeId).toList();
    }

    @Test
    void theLeaderPrunesStoppedAndDeadNodesPastTheRetentionAndKeepsRunningOnes() throws Exception {
        Errand stopped = node(fast("stopped").threadNamePrefix("stopped-"));
        stopped.start();
        stopped.stop(Duration.ofSeconds(5));
        Errand dead = node(fast("dead").threadNamePrefix("dead-"));
        dead.start();
        dead.stop(Duration.ofSeconds(5));
        // A node declared dead: the sweep needs a silent node watched for the timeout; its row is what counts.
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE " + prefix + "node SET state = 'dead', stopped_at = NULL WHERE node_id = 'dead'");
        }
        CountingDataSource leaderDb = new CountingDataSource(dataSource());
        Errand leader = node(builder(leaderDb.dataSource())
                .nodeId("leader")
                .threadNamePrefix("leader-")
                .pruneInterval(Duration.ofSeconds(1))
                .nodeRetention(Duration.ofMinutes(10)));
        leader.start();
        Errand other = node(fast("other").threadNamePrefix("other-"));
        other.start();
        assertThat(leader.isLeader()).isTrue();

        // Within the retention: two prunes ran and kept every row.
        await().atMost(Duration.ofSeconds(20)).until(() -> prunes(leaderDb, prefix + "node") >= 2);
        assertThat(nodeIds(leader)).containsExactlyInAnyOrder("stopped", "dead", "leader", "other");
        assertThat(leader.cluster().nodes())
                .filteredOn(n -> n.nodeId().equals("dead"))
                .extracting(NodeInfo::state)
                .containsExactly(NodeState.DEAD);

        // Past it on the database clock: the gone nodes' rows go, the running ones stay.
        clock.advance(Duration.ofMinutes(11));
        await().atMost(Duration.ofSeconds(20)).until(() -> nodeIds(leader).size() == 2);
        assertThat(nodeIds(leader)).containsExactlyInAnyOrder("leader", "other");

        // A pruned node that starts again registers again.
        Errand back = node(fast("stopped").threadNamePrefix("back-"));
        back.start();
        assertThat(nodeIds(leader)).containsExactlyInAnyOrder("leader", "other", "stopped");
    }

    @Test
    void aNodeIdFromTheHostIsStableAcrossRestarts() {
        String expected = NodeIds.of(NodeIds.hostName().orElseThrow(), "worker");
        Errand first = node(builder().nodeIdFromHost("worker").threadNamePrefix("first-"));
        assertThat(first.settings().nodeId()).isEqualTo(expected).endsWith("-worker");
        first.start();
        first.stop(Duration.ofSeconds(5));
        Errand second = node(builder().nodeIdFromHost("worker").threadNamePrefix("second-"));
        second.start();
        Errand sibling = node(builder().nodeIdFromHost("api").threadNamePrefix("sibling-"));
        sibling.start();
        List<NodeInfo> nodes = second.cluster().nodes();
        assertThat(nodes)
                .extracting(NodeInfo::nodeId)
                .containsExactlyInAnyOrder(expected, sibling.settings().nodeId());
        assertThat(nodes)
                .filteredOn(n -> n.nodeId().equals(expected))
                .extracting(NodeInfo::state)
                .containsExactly(NodeState.RUNNING);
    }

    @Test
    void aRunningRowOfAnotherProcessUnderTheSameIdIsWarnedAbout() throws Exception {
        Errand first = node(builder().nodeId("shared").threadNamePrefix("first-"));
        first.start();
        // As if another process on another host ran under this id: its row is running with a fresh heartbeat.
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE " + prefix + "node SET host = 'elsewhere', pid = 1 WHERE node_id = 'shared'");
        }
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        java.io.PrintStream original = System.err;
        System.setErr(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            Errand second = node(builder().nodeId("shared").threadNamePrefix("second-"));
            second.start();
        } finally {
            System.setErr(original);
        }
        String log = captured.toString(java.nio.charset.StandardCharsets.UTF_8);
        original.print(log);
        assertThat(log)
                .contains("WARN dev.errand.internal.cluster.NodeRegistry - Node id shared is registered as running by"
                        + " process 1 on host elsewhere")
                .contains("two nodes share one id");
    }

    @Test
    void badValuesAreRejectedWithAClearMessage() {
        assertThatThrownBy(() -> builder().nodeRetention(Duration.ofSeconds(30)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nodeRetention");
        assertThatThrownBy(() -> builder().nodeRetention(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nodeRetention");
        assertThatThrownBy(() -> builder().nodeIdFromHost(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nodeIdSuffix");
        assertThatThrownBy(() -> builder().nodeIdFromHost("two words"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("letters, digits");
        assertThatThrownBy(() -> builder().nodeIdFromHost("x".repeat(51)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 to 50");
        assertThatThrownBy(() -> NodeIds.of(" ", "a")).hasMessageContaining("host name");
        assertThat(NodeIds.of("h\u00f6st name", "a")).isEqualTo("h_st_name-a");
        assertThat(NodeIds.of("h".repeat(300), "abc")).hasSize(200).endsWith("-abc");
    }
}
