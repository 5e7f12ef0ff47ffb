package dev.errand.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.TaskContext;
import dev.errand.task.TaskDefinition;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Two groups of group commit deadlock on the database (PostgreSQL and MariaDB only, so not among the contracts that
 * also run on the next H2): each group's first task updates two shared rows, in
 * opposite orders, and they meet in the middle. The database ends one side (PostgreSQL the statement, MariaDB the
 * whole transaction); the losing tasks run again without spending an attempt, and every effect commits once.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#servers")
class GroupCommitDeadlockTest extends ErrandTestSupport {

    /** A task that adds 1 to row {@code first} and then to row {@code second}; 0 and 0 for one that touches none. */
    record Transfer(int number, int first, int second) {}

    GroupCommitDeadlockTest(Target target) {
        super(target);
    }

    @Test
    void aDeadlockBetweenTwoGroupsIsRunAgainWithoutSpendingAttempts() throws Exception {
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + prefix + "account (id INT PRIMARY KEY, balance INT NOT NULL)");
            s.execute("INSERT INTO " + prefix + "account (id, balance) VALUES (1, 0), (2, 0)");
            if (!c.getAutoCommit()) {
                c.commit();
            }
        }
        CyclicBarrier bothHoldTheirFirstRow = new CyclicBarrier(2);
        Set<Integer> metOnce = ConcurrentHashMap.newKeySet();
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        AtomicInteger runs = new AtomicInteger();
        Errand errand = node(builder()
                .queue("default", 4)
                .register(TaskDefinition.builder("transfer", Transfer.class, (Transfer t, TaskContext ctx) -> {
                            runs.incrementAndGet();
                            attempts.add(ctx.attempt());
                            if (t.first() != 0) {
                                add(ctx.connection(), t.first());
                                if (metOnce.add(t.number())) {
                                    bothHoldTheirFirstRow.await(10, TimeUnit.SECONDS);
                                }
                                add(ctx.connection(), t.second());
                            }
                            recordEffect(ctx.connection(), ctx.taskId(), "transfer-" + t.number());
                        })
                        .groupCommit(2)
                        .maxAttempts(1)
                        .build()));
        // Claimed in priority order, so that the groups are [1, 2] and [3, 4]: 1 and 3 cross.
        errand.enqueueAll(List.of(
                request(new Transfer(1, 1, 2), 1),
                request(new Transfer(2, 0, 0), 2),
                request(new Transfer(3, 2, 1), 3),
                request(new Transfer(4, 0, 0), 4)));
        errand.start();

        await().atMost(Duration.ofSeconds(30)).until(() -> taskRows() == 0);
        assertThat(runs.get()).as("the deadlock made some tasks run again").isGreaterThan(4);
        assertThat(attempts).as("no attempt was spent on the deadlock").containsOnly(1);
        assertThat(effectNotes()).containsExactlyInAnyOrder("transfer-1", "transfer-2", "transfer-3", "transfer-4");
        assertThat(scalar("SELECT SUM(balance) FROM " + prefix + "account WHERE id IN (1, 2)"))
                .as("each transfer's two updates committed exactly once")
                .isEqualTo(4);
        assertThat(scalar("SELECT MIN(balance) FROM " + prefix + "account")).isEqualTo(2);
    }

    private static TaskRequest request(Transfer transfer, int priority) {
        return TaskRequest.builder("transfer", transfer).priority(priority).build();
    }

    private void add(Connection connection, int account) throws java.sql.SQLException {
        try (PreparedStatement s =
                connection.prepareStatement("UPDATE " + prefix + "account SET balance = balance + 1 WHERE id = ?")) {
            s.setInt(1, account);
            s.executeUpdate();
        }
    }
}
