package dev.errand.jpa.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.jpa.EntityQueue;
import dev.errand.jpa.EntityQueues;
import dev.errand.jpa.queue.EntityQueueDefinition;
import dev.errand.jpa.state.QueueStatus;
import dev.errand.jpa.testing.JpaDatabase;
import dev.errand.jpa.testing.Message;
import dev.errand.testkit.TestDatabase;
import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * On PostgreSQL a claim takes at most one batch whatever join the planner picks: here the session's planner
 * settings leave it only a nested loop that would run the claim's locking subquery once per row of the table
 * (see {@code ClaimLimitUnderAnyPlanTest} in errand-core, where PostgreSQL chose that plan by itself).
 */
class ClaimUnderAnyPlanTest {

    private static final int ITEMS = 300;
    private static final int BATCH = 5;

    private final String prefix = TestDatabase.newPrefix();
    private EntityManagerFactory emf;
    private EntityQueues node;

    @AfterEach
    void cleanUp() {
        if (node != null) {
            node.stop(Duration.ofSeconds(10));
        }
        if (emf != null) {
            emf.close();
        }
        TestDatabase.POSTGRES.dropTables(prefix);
    }

    @Test
    void aNestedLoopPlanStillClaimsOneBatch() throws Exception {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setURL(TestDatabase.POSTGRES.url());
        try (Connection c = TestDatabase.POSTGRES.dataSource().getConnection()) {
            dataSource.setUser(c.getMetaData().getUserName());
        }
        dataSource.setOptions("-c enable_hashjoin=off -c enable_mergejoin=off -c enable_hashagg=off"
                + " -c enable_material=off -c enable_sort=off");
        emf = JpaDatabase.create(dataSource, prefix, List.of(Message.class));
        emf.runInTransaction(em -> {
            for (int i = 0; i < ITEMS; i++) {
                em.persist(new Message("message " + i));
            }
        });
        CountDownLatch release = new CountDownLatch(1);
        Map<Long, Integer> runs = new ConcurrentHashMap<>();
        node = EntityQueues.builder(emf)
                .register(EntityQueueDefinition.builder(Message.class, "sendState", (message, context) -> {
                            runs.merge(message.id(), 1, Integer::sum);
                            release.await(30, TimeUnit.SECONDS);
                            message.sent();
                        })
                        .name("send")
                        .concurrency(1)
                        .batchSize(BATCH)
                        .pollInterval(Duration.ofMillis(50))
                        .build())
                .build();
        node.start();
        EntityQueue<Message> queue = node.queue("send", Message.class);

        await().atMost(Duration.ofSeconds(20)).until(() -> !runs.isEmpty());
        try (Connection c = TestDatabase.POSTGRES.dataSource().getConnection();
                Statement s = c.createStatement();
                ResultSet inProgress = s.executeQuery("SELECT COUNT(*) FROM " + prefix
                        + "jpa_message WHERE send_status = '" + QueueStatus.IN_PROGRESS + "'")) {
            inProgress.next();
            // One item in the processor, at most one batch waiting for the worker, and one claim in flight.
            assertThat(inProgress.getInt(1)).as("items claimed").isLessThanOrEqualTo(3 * BATCH);
        }
        release.countDown();
        await().atMost(Duration.ofSeconds(60)).until(() -> queue.countByStatus().get(QueueStatus.DONE) == ITEMS);
        assertThat(runs).hasSize(ITEMS).allSatisfy((id, count) -> assertThat(count)
                .isEqualTo(1));
    }
}
