package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.node.ClusterAdmin;
import dev.errand.node.ControlChange;
import dev.errand.node.KindChange;
import dev.errand.node.KindControl;
import dev.errand.retry.RetryPolicy;
import dev.errand.task.ExecutionMode;
import dev.errand.task.Task;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A kind's settings changed at run time across the cluster (issue 33 §6): maximum attempts for tasks enqueued
 * from then on, the retry policy and the execution timeout for attempts from then on, on nodes running at the
 * change (through the reload command) and on nodes that start later; each change in the audit with its actor. On
 * every database.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class KindControlContractTest extends ErrandTestSupport {

    KindControlContractTest(Target target) {
        super(target);
    }

    /** A kind whose handler works for five seconds unless interrupted, with no timeout and no retry policy. */
    private static TaskDefinition<Integer> slow() {
        return TaskDefinition.builder("slow", Integer.class, (n, ctx) -> Thread.sleep(5_000))
                .mode(ExecutionMode.NON_TRANSACTIONAL)
                .maxAttempts(3)
                .build();
    }

    @Test
    void maxAttemptsChangedAtRunTimeReachRunningNodesAndNodesThatStartLater() {
        Errand running =
                node(builder().nodeId("running").processingEnabled(false).register(slow()));
        running.start();
        long before = running.enqueue(TaskRequest.of("slow", 1)).id();

        running.cluster().as("ops").changeKind("slow", KindChange.maxAttempts(7));

        // A node that starts later reads the controls before it enqueues anything.
        Errand later = node(builder().nodeId("later").processingEnabled(false).register(slow()));
        later.start();
        assertThat(task(later.enqueue(TaskRequest.of("slow", 2)).id()).maxAttempts())
                .isEqualTo(7);
        // The running node applies it at the reload command, within a heartbeat.
        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        task(running.enqueue(TaskRequest.of("slow", 3)).id()).maxAttempts() == 7);
        assertThat(task(before).maxAttempts())
                .as("a task already queued keeps its maximum")
                .isEqualTo(3);
        assertThat(task(running.enqueue(TaskRequest.builder("slow", 4)
                                        .maxAttempts(2)
                                        .build())
                                .id())
                        .maxAttempts())
                .as("a request's own maximum still wins")
                .isEqualTo(2);

        running.cluster().resetKind("slow");
        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        task(running.enqueue(TaskRequest.of("slow", 5)).id()).maxAttempts() == 3);
        assertThat(running.cluster().kindControls()).isEmpty();
    }

    @Test
    void theRetryPolicyAndExecutionTimeoutChangedAtRunTimeApplyToTheNextAttempt() throws Exception {
        Errand node = node(builder().register(slow()));
        long id = node.enqueue(TaskRequest.of("slow", 1)).id();
        node.cluster()
                .changeKind(
                        "slow", new KindChange(null, RetryPolicy.fixed(Duration.ofHours(1)), Duration.ofMillis(300)));
        assertThat(node.cluster().kindControls())
                .containsExactly(
                        new KindControl("slow", null, RetryPolicy.fixed(Duration.ofHours(1)), Duration.ofMillis(300)));

        Instant started = databaseNow();
        node.start();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> task(id).attempt() == 1 && task(id).state() == TaskState.PENDING);
        Task retried = task(id);
        assertThat(retried.lastError())
                .as("the attempt was stopped by the new timeout")
                .containsIgnoringCase("timeout");
        assertThat(retried.runAt())
                .as("the retry waits the new policy's hour")
                .isAfter(started.plus(Duration.ofMinutes(55)));
    }

    @Test
    void everyKindChangeIsAuditedAndBadInputIsRefusedWithWhatToDo() throws SQLException {
        Errand node = node(builder().processingEnabled(false).register(slow()));
        ClusterAdmin ops = node.cluster().as("ops");
        ops.changeKind("slow", KindChange.maxAttempts(4));
        ops.changeKind(
                "slow",
                KindChange.retryPolicy(RetryPolicy.exponential(Duration.ofSeconds(2), Duration.ofMinutes(5))
                        .withFactor(3.0)
                        .withJitter(0.0)));
        ops.changeKind(
                "slow", KindChange.retryPolicy(RetryPolicy.delays(Duration.ofSeconds(1), Duration.ofMinutes(1))));
        assertThat(node.cluster().kindControls().get(0).maxAttempts())
                .as("unset values stay")
                .isEqualTo(4);
        assertThat(node.cluster().kindControls().get(0).retryPolicy())
                .isEqualTo(RetryPolicy.delays(Duration.ofSeconds(1), Duration.ofMinutes(1)));
        ops.resetKind("slow");
        assertThat(node.cluster().changes(10))
                .extracting(ControlChange::actor, ControlChange::action, ControlChange::target)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("ops", "reset-kind", "kind:slow"),
                        org.assertj.core.groups.Tuple.tuple("ops", "change-kind", "kind:slow"),
                        org.assertj.core.groups.Tuple.tuple("ops", "change-kind", "kind:slow"),
                        org.assertj.core.groups.Tuple.tuple("ops", "change-kind", "kind:slow"));
        assertThat(node.cluster().changes(10).get(3).detail()).isEqualTo("maxAttempts=4");

        assertThatThrownBy(() -> ops.changeKind("slow", null)).hasMessageContaining("KindChange.maxAttempts(n)");
        assertThatThrownBy(() -> new KindChange(null, null, null)).hasMessageContaining("at least one of");
        assertThatThrownBy(() -> KindChange.maxAttempts(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KindChange.executionTimeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KindChange.retryPolicy(attempt -> Duration.ofSeconds(attempt)))
                .hasMessageContaining("RetryPolicy.fixed");
        assertThatThrownBy(() -> ops.changeKind(" ", KindChange.maxAttempts(2)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ops.resetKind("x".repeat(201))).isInstanceOf(IllegalArgumentException.class);
        assertThat(node.cluster().changes(10))
                .as("refused changes leave no row")
                .hasSize(4);
    }

    @Test
    void aRowWithAPolicyEditedByHandIsSkippedWithoutStoppingTheOthers() throws SQLException {
        Errand node = node(builder().processingEnabled(false).register(slow()));
        node.cluster().changeKind("slow", KindChange.maxAttempts(9));
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO " + prefix + "kind_control (kind, retry_policy, updated_at) VALUES"
                    + " ('broken', 'every now and then', CURRENT_TIMESTAMP)");
        }
        assertThat(node.cluster().kindControls()).extracting(KindControl::kind).containsExactly("slow");
    }

    private Task task(long id) {
        return nodes().get(0).admin().find(id).orElseThrow();
    }

    private List<Errand> nodes() {
        return List.copyOf(started);
    }

    private final List<Errand> started = new java.util.ArrayList<>();

    @Override
    protected Errand node(dev.errand.ErrandBuilder builder) {
        Errand node = super.node(builder);
        started.add(node);
        return node;
    }
}
