package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.ErrandBuilder;
import dev.errand.config.ClaimOrder;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The claim order (issue 33 §7): by default a node claims the task due longest first within a priority; with
 * {@link ClaimOrder#FEWEST_ATTEMPTS_FIRST} it takes fresh tasks before retried ones of the same priority, so
 * that tasks that keep failing do not hold back new work. Priority comes first in both. One worker runs the
 * tasks one at a time in the order they were claimed, on every database and with both claim strategies.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#claiming")
class ClaimOrderContractTest extends ErrandTestSupport {

    private final List<String> ran = Collections.synchronizedList(new ArrayList<>());

    ClaimOrderContractTest(Target target) {
        super(target);
    }

    @Test
    void byDefaultTheTaskDueLongestRunsFirstWithinAPriority() throws Exception {
        assertThat(runAll(builder()))
                .containsExactly(
                        "urgent-retried", "retried-0", "retried-1", "retried-2", "fresh-0", "fresh-1", "fresh-2");
    }

    @Test
    void fewestAttemptsFirstTakesFreshTasksBeforeRetriedOnesOfTheSamePriority() throws Exception {
        assertThat(runAll(builder().claimOrder(ClaimOrder.FEWEST_ATTEMPTS_FIRST)))
                .containsExactly(
                        "urgent-retried", "fresh-0", "fresh-1", "fresh-2", "retried-0", "retried-1", "retried-2");
    }

    @Test
    void fewestAttemptsFirstAppliesToKindsUnderAFlowLimit() throws Exception {
        List<String> order = runAll(builder().claimOrder(ClaimOrder.FEWEST_ATTEMPTS_FIRST), 1);
        assertThat(order)
                .containsExactly(
                        "urgent-retried", "fresh-0", "fresh-1", "fresh-2", "retried-0", "retried-1", "retried-2");
    }

    @Test
    void aNullOrderIsRefusedWithTheChoices() {
        assertThatThrownBy(() -> builder().claimOrder(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ClaimOrder.DUE_FIRST")
                .hasMessageContaining("ClaimOrder.FEWEST_ATTEMPTS_FIRST");
    }

    private List<String> runAll(ErrandBuilder builder) throws Exception {
        return runAll(builder, null);
    }

    /**
     * Enqueues three tasks that have been retried twice, due ten minutes ago, then three fresh ones due now, all
     * at priority 5, and one retried task at priority 1; then starts one worker and returns the order they ran
     * in.
     */
    private List<String> runAll(ErrandBuilder builder, Integer flowLimit) throws Exception {
        TaskDefinition.Builder<String> definition = TaskDefinition.builder(
                        "ordered", String.class, (name, ctx) -> ran.add(name))
                .mode(ExecutionMode.NON_TRANSACTIONAL)
                .maxAttempts(10);
        if (flowLimit != null) {
            definition.concurrencyLimit(flowLimit);
        }
        Errand node = node(builder.queue("default", 1).register(definition.build()));
        Instant tenMinutesAgo = databaseNow().minus(Duration.ofMinutes(10));
        List<Long> retried = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            retried.add(node.enqueue(TaskRequest.builder("ordered", "retried-" + i)
                            .runAt(tenMinutesAgo.plusSeconds(i))
                            .build())
                    .id());
        }
        for (int i = 0; i < 3; i++) {
            node.enqueue(TaskRequest.builder("ordered", "fresh-" + i)
                    .runAt(databaseNow().minusSeconds(3 - i))
                    .build());
        }
        retried.add(node.enqueue(TaskRequest.builder("ordered", "urgent-retried")
                        .runAt(databaseNow())
                        .priority(1)
                        .build())
                .id());
        markRetriedTwice(retried);

        node.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> ran.size() == 7);
        return List.copyOf(ran);
    }

    /** Sets the tasks' attempt count as two failed attempts would have left it. */
    private void markRetriedTwice(List<Long> ids) throws SQLException {
        try (Connection c = dataSource().getConnection();
                PreparedStatement s = c.prepareStatement("UPDATE " + prefix + "task SET attempt = 2 WHERE id = ?")) {
            for (long id : ids) {
                s.setLong(1, id);
                s.executeUpdate();
            }
        }
    }
}
