package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.Errand;
import dev.errand.node.ClusterAdmin;
import dev.errand.node.ControlChange;
import dev.errand.node.NodeTarget;
import dev.errand.node.QueueChange;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The audit of the cluster-wide controls (issue 33 §6): every change through {@link ClusterAdmin} leaves a row
 * with the database's time, the actor, the action, the target and the values set, newest first; a change that
 * is refused leaves none. On every database.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class ControlAuditContractTest extends ErrandTestSupport {

    ControlAuditContractTest(Target target) {
        super(target);
    }

    @Test
    void everyControlChangeIsRecordedWithItsActorNewestFirst() throws Exception {
        Errand node = node(builder().nodeId("admin-node").processingEnabled(false));
        Instant before = databaseNow().minusSeconds(1);
        ClusterAdmin alice = node.cluster().as("alice@example.com");

        alice.pauseQueue("mail");
        alice.changeQueue("mail", new QueueChange(4, Duration.ofSeconds(2), null));
        node.cluster().resumeQueue("mail");
        alice.resetQueue("mail");
        alice.repoll(NodeTarget.group("reports"));
        alice.stopProcessing(NodeTarget.node("worker-1"));
        node.cluster().as("bob").startProcessing(NodeTarget.all());

        List<ControlChange> changes = node.cluster().changes(10);
        assertThat(changes)
                .extracting(ControlChange::actor, ControlChange::action, ControlChange::target, ControlChange::detail)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("bob", "start-processing", "all-nodes", null),
                        org.assertj.core.groups.Tuple.tuple(
                                "alice@example.com", "stop-processing", "node:worker-1", null),
                        org.assertj.core.groups.Tuple.tuple("alice@example.com", "repoll", "group:reports", null),
                        org.assertj.core.groups.Tuple.tuple("alice@example.com", "reset-queue", "queue:mail", null),
                        org.assertj.core.groups.Tuple.tuple("node:admin-node", "resume-queue", "queue:mail", null),
                        org.assertj.core.groups.Tuple.tuple(
                                "alice@example.com", "change-queue", "queue:mail", "concurrency=4, pollInterval=PT2S"),
                        org.assertj.core.groups.Tuple.tuple("alice@example.com", "pause-queue", "queue:mail", null));
        Instant after = databaseNow().plusSeconds(1);
        assertThat(changes).allSatisfy(change -> assertThat(change.changedAt()).isBetween(before, after));
        assertThat(changes.get(0).id()).isGreaterThan(changes.get(1).id());
        assertThat(node.cluster().changes(2)).hasSize(2).first().isEqualTo(changes.get(0));
    }

    @Test
    void theChangeAndItsAuditRowAreOneTransactionAndARefusedChangeLeavesNoRow() throws SQLException {
        Errand node = node(builder().processingEnabled(false));
        ClusterAdmin carol = node.cluster().as("carol");

        assertThatThrownBy(() -> carol.pauseQueue("bad\nqueue")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> carol.changeQueue("mail", null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> carol.stopProcessing(null)).isInstanceOf(IllegalArgumentException.class);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "control_change")).isZero();

        carol.pauseQueue("mail");
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "control_change")).isEqualTo(1);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "queue_control WHERE paused = TRUE"))
                .isEqualTo(1);
    }

    @Test
    void badActorsAndLimitsAreRefusedWithWhatToDo() {
        Errand node = node(builder().processingEnabled(false));
        ClusterAdmin cluster = node.cluster();
        assertThatThrownBy(() -> cluster.as(null)).hasMessageContaining("actor must be 1 to 200");
        assertThatThrownBy(() -> cluster.as("  ")).hasMessageContaining("actor must be 1 to 200");
        assertThatThrownBy(() -> cluster.as(" alice")).hasMessageContaining("strip it first");
        assertThatThrownBy(() -> cluster.as("x".repeat(201))).hasMessageContaining("at most 200");
        assertThatThrownBy(() -> cluster.changes(0)).hasMessageContaining("between 1 and 1000");
        assertThatThrownBy(() -> cluster.changes(1001)).hasMessageContaining("between 1 and 1000");
        assertThat(cluster.changes(1000)).isEmpty();
    }

    @Test
    void flowLimitChangesAreRecordedWithTheirActorAndARefusedOneLeavesNoRow() {
        Errand node = node(builder()
                .nodeId("flow-node")
                .processingEnabled(false)
                .queue("partner", 2)
                .register(dev.errand.task.TaskDefinition.builder("report", Integer.class, (n, ctx) -> {})
                        .build()));
        dev.errand.flow.FlowAdmin dave = node.flow().as("dave");

        dave.changeLimit("report", 5);
        assertThatThrownBy(() -> dave.changeLimitPerKey("report", 1)).hasMessageContaining("has a concurrency limit");
        assertThatThrownBy(() -> dave.changeLimit("report", 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> dave.changeLimit("no-such-kind", 3)).hasMessageContaining("not registered");
        dave.resetLimits("report");
        dave.changeRateLimit("report", new dev.errand.flow.RateLimit(100, Duration.ofMinutes(1)));
        node.flow().changeQueueLimit("partner", 3);
        dave.resetQueueLimit("partner");
        assertThatThrownBy(() -> node.flow().as(" padded")).hasMessageContaining("strip it first");

        assertThat(node.cluster().changes(10))
                .extracting(ControlChange::actor, ControlChange::action, ControlChange::target, ControlChange::detail)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("dave", "reset-queue-limit", "queue:partner", null),
                        org.assertj.core.groups.Tuple.tuple(
                                "node:flow-node", "change-queue-limit", "queue:partner", "concurrency=3"),
                        org.assertj.core.groups.Tuple.tuple(
                                "dave", "change-flow-limit", "kind:report", "rate=100 per PT1M"),
                        org.assertj.core.groups.Tuple.tuple("dave", "reset-flow-limits", "kind:report", null),
                        org.assertj.core.groups.Tuple.tuple(
                                "dave", "change-flow-limit", "kind:report", "concurrency=5"));
    }
}
