package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.history.AttemptQuery;
import dev.errand.node.ControlChange;
import dev.errand.node.Retention;
import dev.errand.node.RetentionControl;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Retentions changed at run time for the whole cluster (issue 33 §6): the leader prunes by them at its next prune,
 * over what the nodes were built with (including nothing), a reset goes back, every change is in the audit, and
 * bad input changes nothing. On every database, with the test clock moving time.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class RetentionControlContractTest extends ErrandTestSupport {

    RetentionControlContractTest(Target target) {
        super(target);
    }

    private Errand pruningNode() {
        return node(builder()
                .nodeId("keeper")
                .historyEnabled(true)
                .pruneInterval(Duration.ofSeconds(1))
                .register(TaskDefinition.builder("doomed", Integer.class, (n, ctx) -> {
                            throw new IllegalStateException("no");
                        })
                        .maxAttempts(1)
                        .build()));
    }

    @Test
    void aRetentionSetAtRunTimePrunesWhatTheNodesWouldKeepAndAResetGoesBack() throws Exception {
        Errand node = pruningNode();
        long failed = node.enqueue(TaskRequest.of("doomed", 1)).id();
        node.triggerEvent("early");
        node.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> tasksIn(TaskState.FAILED) == 1);

        node.cluster().as("ops").changeRetention(Retention.FAILED_TASKS, Duration.ofHours(1));
        node.cluster().as("ops").changeRetention(Retention.PREMATURE_EVENTS, Duration.ofMinutes(30));
        node.cluster().changeRetention(Retention.ATTEMPT_HISTORY, Duration.ofHours(2));
        assertThat(node.cluster().retentionControls())
                .extracting(RetentionControl::retention, RetentionControl::age)
                .containsExactly(
                        tuple(Retention.FAILED_TASKS, Duration.ofHours(1)),
                        tuple(Retention.ATTEMPT_HISTORY, Duration.ofHours(2)),
                        tuple(Retention.PREMATURE_EVENTS, Duration.ofMinutes(30)));

        clock.advance(Duration.ofMinutes(45));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> node.events().premature(10).isEmpty());
        assertThat(node.admin().find(failed)).as("an hour for failed tasks").isPresent();

        clock.advance(Duration.ofMinutes(30));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> node.admin().find(failed).isEmpty());
        assertThat(node.history().attempts(failed))
                .as("two hours for the history")
                .hasSize(1);

        clock.advance(Duration.ofHours(1));
        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        node.history().search(AttemptQuery.builder().build()).total() == 0);

        // Back to what the node was built with: no retention for failed tasks, so a new one stays. Cancelled
        // tasks get an hour: the prune that deletes the cancelled one has passed over the failed one.
        node.cluster().as("ops").resetRetention(Retention.FAILED_TASKS);
        node.cluster().as("ops").changeRetention(Retention.CANCELLED_TASKS, Duration.ofHours(1));
        long kept = node.enqueue(TaskRequest.of("doomed", 2)).id();
        long cancelled = node.enqueue(TaskRequest.builder("doomed", 3)
                        .delay(Duration.ofDays(30))
                        .build())
                .id();
        assertThat(node.admin().cancel(cancelled)).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> tasksIn(TaskState.FAILED) == 1);
        clock.advance(Duration.ofHours(3));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> node.admin().find(cancelled).isEmpty());
        assertThat(node.admin().find(kept)).isPresent();

        assertThat(node.cluster().changes(10))
                .extracting(ControlChange::actor, ControlChange::action, ControlChange::target, ControlChange::detail)
                .containsExactly(
                        tuple("ops", "change-retention", "retention:cancelled-tasks", "PT1H"),
                        tuple("ops", "reset-retention", "retention:failed-tasks", null),
                        tuple("node:keeper", "change-retention", "retention:attempt-history", "PT2H"),
                        tuple("ops", "change-retention", "retention:premature-events", "PT30M"),
                        tuple("ops", "change-retention", "retention:failed-tasks", "PT1H"));
    }

    @Test
    void aChangeReplacesTheRetentionAndBadInputChangesNothing() throws Exception {
        Errand node = node(builder().processingEnabled(false));
        node.cluster().changeRetention(Retention.BATCHES, Duration.ofDays(3));
        node.cluster().changeRetention(Retention.BATCHES, Duration.ofSeconds(1));
        assertThat(node.cluster().retentionControls()).singleElement().satisfies(control -> {
            assertThat(control.retention()).isEqualTo(Retention.BATCHES);
            assertThat(control.age()).isEqualTo(Duration.ofSeconds(1));
            assertThat(control.changedAt()).isNotNull();
        });
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "control_change")).isEqualTo(2);

        assertThatThrownBy(() -> node.cluster().changeRetention(null, Duration.ofDays(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("retention must not be null: one of [FAILED_TASKS");
        assertThatThrownBy(() -> node.cluster().changeRetention(Retention.BATCHES, null))
                .hasMessageContaining(
                        "The retention of batches (batchRetention) must be between 1s and 3650d, got nothing");
        assertThatThrownBy(() -> node.cluster().changeRetention(Retention.BATCHES, Duration.ZERO))
                .hasMessageContaining("must be between 1s and 3650d");
        assertThatThrownBy(() -> node.cluster().changeRetention(Retention.FAILED_TASKS, Duration.ofDays(3651)))
                .hasMessageContaining("The retention of failed-tasks (failedRetention) must be between 1s and 3650d");
        assertThatThrownBy(() -> node.cluster().changeRetention(Retention.STOPPED_NODES, Duration.ofSeconds(30)))
                .hasMessageContaining("The retention of stopped-nodes (nodeRetention) must be between 1m and 3650d");
        assertThatThrownBy(() -> node.cluster().resetRetention(null))
                .hasMessageContaining("retention must not be null");
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "control_change")).isEqualTo(2);
        assertThat(node.cluster().retentionControls())
                .singleElement()
                .extracting(RetentionControl::age)
                .isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void aRowEditedByHandIntoNonsenseIsSkippedAndTheOthersApply() throws Exception {
        Errand node = node(builder().processingEnabled(false));
        node.cluster().changeRetention(Retention.CANCELLED_TASKS, Duration.ofHours(4));
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO " + prefix + "retention_control (name, retention_ms, updated_at)"
                    + " SELECT 'forever-and-a-day', 1000, updated_at FROM " + prefix + "retention_control");
            s.executeUpdate("INSERT INTO " + prefix + "retention_control (name, retention_ms, updated_at)"
                    + " SELECT 'batches', -5, updated_at FROM " + prefix + "retention_control"
                    + " WHERE name = 'cancelled-tasks'");
        }
        assertThat(node.cluster().retentionControls())
                .extracting(RetentionControl::retention, RetentionControl::age)
                .containsExactly(tuple(Retention.CANCELLED_TASKS, Duration.ofHours(4)));
    }
}
