package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.ErrandBuilder;
import dev.errand.schedule.Schedule;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import dev.errand.testing.CountingDataSource;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Schedule firing and pruning are the leader's chores: with two nodes on every database, only the one
 * that holds the leader lease fires schedules and prunes (even with processing disabled on it), and when
 * it stops the other takes the lease and the chores over. Each node runs on its own watched DataSource,
 * so what each node's chore threads sent to the database is counted, not guessed from effects.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class LeaderChoresContractTest extends ErrandTestSupport {

    LeaderChoresContractTest(Target target) {
        super(target);
    }

    private ErrandBuilder choresNode(CountingDataSource db, String nodeId) {
        return builder(db.dataSource())
                .nodeId(nodeId)
                .threadNamePrefix(nodeId + "-")
                .succeededRetention(Duration.ofSeconds(1))
                .historyRetention(Duration.ofSeconds(1))
                .prematureEventRetention(Duration.ofSeconds(1))
                .pruneInterval(Duration.ofSeconds(1))
                .register(TaskDefinition.builder("tick", Integer.class, (n, ctx) -> {
                            recordEffect(ctx.connection(), ctx.taskId(), "tick");
                        })
                        .mode(ExecutionMode.TRANSACTIONAL)
                        .build())
                .schedule(Schedule.every("every-second", "tick", Duration.ofSeconds(1))
                        .payload(1)
                        .build());
    }

    /** Statements that a node's scheduler and pruner threads sent. */
    private static long choreStatements(CountingDataSource db) {
        return db.transactions(thread -> thread.endsWith("-scheduler") || thread.endsWith("-pruner")).stream()
                .mapToLong(t -> t.statements().size())
                .sum();
    }

    private static long statementsOn(CountingDataSource db, String threadSuffix) {
        return db.transactions(thread -> thread.endsWith(threadSuffix)).stream()
                .mapToLong(t -> t.statements().size())
                .sum();
    }

    @Test
    void onlyTheLeaderFiresSchedulesAndPrunesAndTheOtherTakesOverWhenItStops() throws Exception {
        CountingDataSource leaderDb = new CountingDataSource(dataSource());
        CountingDataSource otherDb = new CountingDataSource(dataSource());
        // The leader processes nothing: its chores must run anyway.
        Errand leader = node(choresNode(leaderDb, "lead").processingEnabled(false));
        leader.start();
        assertThat(leader.isLeader())
                .as("a lone node leads from its registration")
                .isTrue();
        Errand other = node(choresNode(otherDb, "other"));
        other.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> effects() >= 3);
        // Succeeded ticks are pruned a second after they ran, by the leader, which ran none of them.
        await().atMost(Duration.ofSeconds(20)).until(() -> prunedAfter(0) >= 1);
        assertThat(other.isLeader()).isFalse();
        assertThat(statementsOn(leaderDb, "-scheduler")).isPositive();
        assertThat(statementsOn(leaderDb, "-pruner")).isPositive();
        assertThat(choreStatements(otherDb))
                .as("chores on the node that does not lead")
                .isZero();

        leader.stop(Duration.ofSeconds(5));
        otherDb.clear();
        await().atMost(Duration.ofSeconds(10)).until(other::isLeader);
        long lastBefore = lastTaskRun();
        await().atMost(Duration.ofSeconds(20)).until(() -> prunedAfter(lastBefore) >= 1);
        assertThat(statementsOn(otherDb, "-scheduler")).isPositive();
        assertThat(statementsOn(otherDb, "-pruner")).isPositive();
        assertThat(distinctEffects()).as("each slot fired once").isEqualTo(effects());
    }

    @Test
    void withoutTheRegistryEveryNodeDoesTheChores() throws Exception {
        CountingDataSource firstDb = new CountingDataSource(dataSource());
        CountingDataSource secondDb = new CountingDataSource(dataSource());
        Errand first = node(choresNode(firstDb, "first"));
        Errand second = node(choresNode(secondDb, "second"));
        // Own DDL without the cluster tables: the nodes cannot register and run without a leader.
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.execute("DROP TABLE " + prefix + "node");
        }
        first.start();
        second.start();
        assertThat(first.isLeader()).isFalse();
        assertThat(second.isLeader()).isFalse();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> statementsOn(firstDb, "-pruner") > 0 && statementsOn(secondDb, "-pruner") > 0);
        await().atMost(Duration.ofSeconds(20)).until(() -> effects() >= 3);
        assertThat(statementsOn(firstDb, "-scheduler")).isPositive();
        assertThat(statementsOn(secondDb, "-scheduler")).isPositive();
        assertThat(distinctEffects()).as("each slot fired once").isEqualTo(effects());
        await().atMost(Duration.ofSeconds(20)).until(() -> prunedAfter(0) >= 1);
    }

    /** Ticks that ran with a task id above {@code afterId} and whose task row is gone: pruned. */
    private long prunedAfter(long afterId) throws Exception {
        return scalar("SELECT COUNT(*) FROM " + prefix + "effect e WHERE e.task_id > " + afterId
                + " AND NOT EXISTS (SELECT 1 FROM " + prefix + "task t WHERE t.id = e.task_id)");
    }

    private long lastTaskRun() throws Exception {
        return scalar("SELECT COALESCE(MAX(task_id), 0) FROM " + prefix + "effect");
    }
}
