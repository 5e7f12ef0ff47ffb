package dev.errand.spring.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.admin.TaskQuery;
import dev.errand.batch.BatchEvent;
import dev.errand.batch.BatchRequest;
import dev.errand.batch.EnqueuedBatch;
import dev.errand.enqueue.TaskRequest;
import dev.errand.spi.TransactionRunner;
import dev.errand.spring.ErrandClient;
import dev.errand.spring.ErrandTask;
import dev.errand.spring.SpringTransactionRunner;
import dev.errand.spring.testing.PostgresTables;
import dev.errand.task.Task;
import dev.errand.task.TaskContext;
import dev.errand.task.TaskHandler;
import dev.errand.task.TaskState;
import dev.errand.workflow.EnqueuedWorkflow;
import dev.errand.workflow.Workflow;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.stereotype.Service;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Enqueueing in, and running handlers in, transactions of a {@link DataSourceTransactionManager}, on
 * PostgreSQL: {@code @Transactional} services, {@code TransactionTemplate} and {@code JdbcTemplate}.
 */
@SpringBootTest(
        classes = JdbcTransactionsTest.App.class,
        properties = {"errand.poll-interval=100ms", "errand.queues.default.concurrency=2", "errand.shutdown-timeout=5s"
        })
@ContextConfiguration(initializers = PostgresTables.class)
@DirtiesContext
class JdbcTransactionsTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration(
            excludeName = {
                "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration",
                "org.springframework.boot.data.jpa.autoconfigure.DataJpaRepositoriesAutoConfiguration"
            })
    @Import({Orders.class, Ledger.class, RecordOrder.class})
    static class App {}

    record OrderPlaced(long orderId) {}

    /** The application's business tables, named with the test's prefix. */
    @Service
    static class Orders {
        final JdbcTemplate jdbc;
        final ErrandClient errand;
        final String table;

        Orders(JdbcTemplate jdbc, ErrandClient errand, @Value("${errand.table-prefix}") String prefix) {
            this.jdbc = jdbc;
            this.errand = errand;
            this.table = prefix + "orders";
            jdbc.execute("CREATE TABLE " + table + " (id BIGINT PRIMARY KEY, status VARCHAR(20) NOT NULL)");
            jdbc.execute("CREATE TABLE " + prefix + "ledger (order_id BIGINT NOT NULL)");
        }

        /** Places an order and enqueues its recording, in one transaction; throws after both if asked. */
        @Transactional
        public long place(long orderId, boolean thenFail) {
            jdbc.update("INSERT INTO " + table + " (id, status) VALUES (?, 'placed')", orderId);
            long taskId =
                    errand.enqueue("record-order", new OrderPlaced(orderId)).id();
            if (thenFail) {
                throw new IllegalStateException("payment declined");
            }
            return taskId;
        }

        public String status(long orderId) {
            return jdbc.query(
                    "SELECT status FROM " + table + " WHERE id = ?", rs -> rs.next() ? rs.getString(1) : null, orderId);
        }

        // A method, not the field: this bean is a transactional proxy, whose own fields are empty.
        public String table() {
            return table;
        }
    }

    /** A transactional service that a handler calls: it must join the handler's transaction. */
    @Service
    static class Ledger {
        final JdbcTemplate jdbc;
        final String table;

        Ledger(JdbcTemplate jdbc, @Value("${errand.table-prefix}") String prefix) {
            this.jdbc = jdbc;
            this.table = prefix + "ledger";
        }

        @Transactional
        public void record(long orderId) {
            jdbc.update("INSERT INTO " + table + " (order_id) VALUES (?)", orderId);
        }

        public int entries(long orderId) {
            return jdbc.queryForObject("SELECT COUNT(*) FROM " + table + " WHERE order_id = ?", Integer.class, orderId);
        }
    }

    @ErrandTask(value = "record-order", maxAttempts = 3, retry = ErrandTask.Retry.FIXED, retryDelay = "100ms")
    static class RecordOrder implements TaskHandler<OrderPlaced> {
        static final long FAIL_FIRST_ATTEMPT = 30;
        static final long ALWAYS_FAIL = 40;
        static final Set<Long> SHARED_CONNECTION = ConcurrentHashMap.newKeySet();

        final JdbcTemplate jdbc;
        final Ledger ledger;
        final Orders orders;
        final DataSource dataSource;

        RecordOrder(JdbcTemplate jdbc, Ledger ledger, Orders orders, DataSource dataSource) {
            this.jdbc = jdbc;
            this.ledger = ledger;
            this.orders = orders;
            this.dataSource = dataSource;
        }

        @Override
        public void handle(OrderPlaced order, TaskContext context) throws SQLException {
            // The handler gets the transaction's connection behind a guard; both reach the same raw connection.
            if (DataSourceUtils.getConnection(dataSource).unwrap(Connection.class)
                    == context.connection().unwrap(Connection.class)) {
                SHARED_CONNECTION.add(order.orderId());
            }
            jdbc.update("UPDATE " + orders.table() + " SET status = 'recorded' WHERE id = ?", order.orderId());
            ledger.record(order.orderId());
            boolean fail =
                    order.orderId() == ALWAYS_FAIL || (order.orderId() == FAIL_FIRST_ATTEMPT && context.attempt() == 1);
            if (fail) {
                throw new IllegalStateException("ledger is closed (attempt " + context.attempt() + ")");
            }
        }
    }

    @Autowired
    Orders orders;

    @Autowired
    Ledger ledger;

    @Autowired
    ErrandClient client;

    @Autowired
    Errand errand;

    @Autowired
    PlatformTransactionManager transactionManager;

    @Autowired
    TransactionRunner transactionRunner;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void theApplicationsDataSourceTransactionManagerRunsHandlers() {
        assertThat(transactionManager).isInstanceOf(DataSourceTransactionManager.class);
        assertThat(((SpringTransactionRunner) transactionRunner).transactionManager())
                .isSameAs(transactionManager);
    }

    @Test
    void rollbackOfATransactionalServiceMethodLeavesNoTask() {
        assertThatThrownBy(() -> orders.place(10, true)).hasMessage("payment declined");

        assertThat(orders.status(10)).isNull();
        assertThat(tasksOf(10)).isZero();
    }

    @Test
    void aCommittedTaskRunsAndItsWritesCommitWithTheCompletion() {
        long taskId = orders.place(20, false);

        await().atMost(Duration.ofSeconds(10))
                .until(() -> errand.admin().find(taskId).isEmpty());
        assertThat(orders.status(20)).isEqualTo("recorded");
        assertThat(ledger.entries(20)).isEqualTo(1);
        assertThat(RecordOrder.SHARED_CONNECTION)
                .as("JdbcTemplate used the task's connection")
                .contains(20L);
    }

    @Test
    void aHandlerThatThrowsRollsBackItsWritesAndTheServicesItCalled() {
        long retried = orders.place(RecordOrder.FAIL_FIRST_ATTEMPT, false);
        long failed = orders.place(RecordOrder.ALWAYS_FAIL, false);

        await().atMost(Duration.ofSeconds(10))
                .until(() -> errand.admin().find(retried).isEmpty());
        // Attempt 1 wrote a ledger entry and then threw: only attempt 2's entry may remain.
        assertThat(ledger.entries(RecordOrder.FAIL_FIRST_ATTEMPT)).isEqualTo(1);

        await().atMost(Duration.ofSeconds(10)).until(() -> errand.admin()
                .find(failed)
                .map(task -> task.state() == TaskState.FAILED)
                .orElse(false));
        Task task = errand.admin().find(failed).orElseThrow();
        assertThat(task.attempt()).isEqualTo(3);
        assertThat(task.lastError()).contains("ledger is closed (attempt 3)");
        assertThat(ledger.entries(RecordOrder.ALWAYS_FAIL)).isZero();
        assertThat(orders.status(RecordOrder.ALWAYS_FAIL)).isEqualTo("placed");
    }

    @Test
    void aTransactionTemplateJoinsAndOutsideATransactionTheTaskCommitsAtOnce() {
        TransactionTemplate template = new TransactionTemplate(transactionManager);
        TaskRequest later = TaskRequest.builder("record-order", new OrderPlaced(50))
                .delay(Duration.ofHours(1))
                .build();

        Optional<Task> seenFromOutside = template.execute(status -> {
            long id = client.enqueue(later).id();
            Optional<Task> outside = errand.admin().find(id);
            status.setRollbackOnly();
            return outside;
        });
        assertThat(seenFromOutside)
                .as("uncommitted task seen from another connection")
                .isEmpty();
        assertThat(tasksOf(50)).isZero();

        long committed = template.execute(status -> client.enqueue(later).id());
        assertThat(errand.admin().find(committed)).isPresent();

        long alone = client.enqueue(later).id();
        assertThat(errand.admin().find(alone))
                .as("committed on its own, outside any transaction")
                .isPresent();
        errand.admin().delete(committed);
        errand.admin().delete(alone);
    }

    @Test
    void aTriggerJoinsTheSpringTransactionAndReleasesTheWaitingTaskOnlyOnCommit() {
        jdbc.update("INSERT INTO " + orders.table() + " (id, status) VALUES (60, 'placed')");
        long id = client.enqueue(TaskRequest.builder("record-order", new OrderPlaced(60))
                        .condition("paid-60")
                        .build())
                .id();
        TransactionTemplate template = new TransactionTemplate(transactionManager);
        template.executeWithoutResult(status -> {
            assertThat(client.triggerEvent("paid-60").releasedTasks()).isEqualTo(1);
            status.setRollbackOnly();
        });
        assertThat(errand.admin().find(id).orElseThrow().state()).isEqualTo(TaskState.WAITING);
        assertThat(errand.events().premature(10)).isEmpty();

        template.executeWithoutResult(status -> client.triggerEvent("paid-60"));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> errand.admin().find(id).isEmpty());
        assertThat(orders.status(60)).isEqualTo("recorded");

        // Outside a transaction, with nobody waiting: stored as premature for the next task.
        assertThat(client.triggerEvent("paid-61").storedAsPremature()).isTrue();
        assertThatThrownBy(() -> client.triggerEvent(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Event name");
    }

    @Test
    void workflowsAndBatchesJoinTheSpringTransaction() {
        jdbc.update("INSERT INTO " + orders.table() + " (id, status) VALUES (70, 'placed'), (71, 'placed'),"
                + " (72, 'placed')");
        TransactionTemplate template = new TransactionTemplate(transactionManager);
        template.executeWithoutResult(status -> {
            client.enqueueWorkflow(Workflow.builder()
                    .step("first", TaskRequest.of("record-order", new OrderPlaced(70)))
                    .step("second", TaskRequest.of("record-order", new OrderPlaced(71)), "first")
                    .build());
            client.enqueueBatch(BatchRequest.builder()
                    .add(TaskRequest.of("record-order", new OrderPlaced(72)))
                    .build());
            status.setRollbackOnly();
        });
        assertThat(errand.admin().count(TaskQuery.all())).isZero();

        EnqueuedWorkflow flow = template.execute(status -> client.enqueueWorkflow(Workflow.builder()
                .step("first", TaskRequest.of("record-order", new OrderPlaced(70)))
                .step("second", TaskRequest.of("record-order", new OrderPlaced(71)), "first")
                .build()));
        EnqueuedBatch batch = template.execute(status -> client.enqueueBatch(BatchRequest.builder()
                .add(TaskRequest.of("record-order", new OrderPlaced(72)))
                .on(BatchEvent.COMPLETE, id -> TaskRequest.of("record-order", new OrderPlaced(72)))
                .build()));
        await().atMost(Duration.ofSeconds(10)).until(() -> errand.admin().count(TaskQuery.all()) == 0);
        assertThat(orders.status(71)).isEqualTo("recorded");
        assertThat(ledger.entries(72)).isEqualTo(2);
        assertThat(client.batches().progress(batch.id()).orElseThrow().succeeded())
                .isEqualTo(1);
        assertThat(flow.taskIds()).containsOnlyKeys("first", "second");
    }

    @Test
    void theTransactionRunnerRollsBackAndRethrowsTheWorksExceptionUnchanged() {
        IOException checked = new IOException("disk full");
        IllegalStateException unchecked = new IllegalStateException("bad state");
        String table = orders.table();

        assertThatThrownBy(() -> transactionRunner.inTransaction(jdbc.getDataSource(), connection -> {
                    connection
                            .createStatement()
                            .executeUpdate("INSERT INTO " + table + " (id, status) VALUES (60, 'x')");
                    throw checked;
                }))
                .isSameAs(checked);
        assertThatThrownBy(() -> transactionRunner.inTransaction(jdbc.getDataSource(), connection -> {
                    connection
                            .createStatement()
                            .executeUpdate("INSERT INTO " + table + " (id, status) VALUES (61, 'x')");
                    throw unchecked;
                }))
                .isSameAs(unchecked);
        assertThat(orders.status(60)).isNull();
        assertThat(orders.status(61)).isNull();
    }

    private long tasksOf(long orderId) {
        return errand
                .admin()
                .list(TaskQuery.builder().kind("record-order").limit(1000).build())
                .items()
                .stream()
                .filter(task -> task.payloadJson().replace(" ", "").contains("\"orderId\":" + orderId + "}"))
                .count();
    }
}
