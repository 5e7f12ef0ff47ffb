package dev.errand.spring.methods;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.spring.ErrandClient;
import dev.errand.spring.ErrandTask;
import dev.errand.spring.ErrandTasks;
import dev.errand.spring.autoconfigure.ErrandAutoConfiguration;
import dev.errand.spring.testing.DatabaseTables;
import dev.errand.task.Task;
import dev.errand.task.TaskContext;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskState;
import dev.errand.testkit.TestDatabase;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;

/**
 * {@code @ErrandTask} methods run on real databases: the payload and the context arrive, the retry attributes
 * apply, and what the method throws (not the reflection wrapper) fails the attempt.
 */
class HandlerMethodsTest {

    static List<TestDatabase> databases() {
        return TestDatabase.selected().stream()
                .filter(database -> database == TestDatabase.POSTGRES || database == TestDatabase.H2)
                .toList();
    }

    /** An invoice; Jackson reads it through its canonical constructor. */
    record Invoice(String number, long cents) {}

    /** What a handler method saw. */
    record Seen(Invoice invoice, long taskId, String kind, int attempt) {}

    /** A refusal of the invoicing service that the test wants to see in the task's error. */
    static class InvoiceRefused extends Exception {
        InvoiceRefused(String message) {
            super(message);
        }
    }

    /** A plain service with three handler methods, none of them a TaskHandler. */
    static class Billing {
        final List<Seen> seen = new CopyOnWriteArrayList<>();
        final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

        @ErrandTask(kind = "send-invoice")
        public void send(Invoice invoice, TaskContext context) {
            seen.add(new Seen(invoice, context.taskId(), context.kind(), context.attempt()));
        }

        /** Fails twice, then succeeds: the context comes first here. */
        @ErrandTask(kind = "flaky-invoice", maxAttempts = 3, retry = ErrandTask.Retry.FIXED, retryDelay = "100ms")
        void flaky(TaskContext context, Invoice invoice) throws InvoiceRefused {
            calls.computeIfAbsent(invoice.number(), n -> new AtomicInteger()).incrementAndGet();
            if (context.attempt() < 3) {
                throw new InvoiceRefused("refused on attempt " + context.attempt());
            }
            seen.add(new Seen(invoice, context.taskId(), context.kind(), context.attempt()));
        }

        /** Always fails, with a checked exception. */
        @ErrandTask(value = "doomed-invoice", maxAttempts = 2, retry = ErrandTask.Retry.DELAYS, retryDelays = "50ms")
        public void doomed(Invoice invoice) throws InvoiceRefused {
            calls.computeIfAbsent(invoice.number(), n -> new AtomicInteger()).incrementAndGet();
            throw new InvoiceRefused("invoice " + invoice.number() + " is refused");
        }
    }

    /** A method behind a transactional proxy: the call goes through the proxy, in the task's transaction. */
    static class Ledger {
        private final JdbcTemplate jdbc;
        private final String table;

        Ledger(DataSource dataSource, Environment environment) {
            this.jdbc = new JdbcTemplate(dataSource);
            this.table = environment.getProperty("errand.table-prefix") + "ledger";
        }

        @Transactional
        @ErrandTask(kind = "book-invoice")
        public void book(Invoice invoice) {
            jdbc.update("INSERT INTO " + table + " (number) VALUES (?)", invoice.number());
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableTransactionManagement
    static class Transactions {}

    private static ApplicationContextRunner runner(TestDatabase database) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        DataSourceAutoConfiguration.class,
                        DataSourceTransactionManagerAutoConfiguration.class,
                        ErrandAutoConfiguration.class))
                .withInitializer(new DatabaseTables(database) {})
                .withPropertyValues("errand.poll-interval=100ms")
                .withBean(Billing.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aMethodRunsWithItsPayloadAndContext(TestDatabase database) {
        runner(database).run(context -> {
            assertThat(context).hasNotFailed();
            TaskDefinition<?> definition = context.getBean(ErrandTasks.class)
                    .find("send-invoice")
                    .orElseThrow()
                    .definition();
            assertThat(definition.payloadType()).isEqualTo(Invoice.class);
            assertThat(context.getBean(ErrandTasks.class)
                            .find("send-invoice")
                            .orElseThrow()
                            .source())
                    .contains("@ErrandTask method send(Invoice, TaskContext) of bean", Billing.class.getName());

            long id = context.getBean(ErrandClient.class)
                    .enqueue("send-invoice", new Invoice("F-1", 1250))
                    .id();
            Billing billing = context.getBean(Billing.class);
            await().atMost(Duration.ofSeconds(20)).until(() -> !billing.seen.isEmpty());
            assertThat(billing.seen).containsExactly(new Seen(new Invoice("F-1", 1250), id, "send-invoice", 1));
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void retryAttributesApplyAndTheMethodsOwnExceptionFailsTheAttempt(TestDatabase database) {
        runner(database).run(context -> {
            ErrandTasks tasks = context.getBean(ErrandTasks.class);
            TaskDefinition<?> flaky = tasks.find("flaky-invoice").orElseThrow().definition();
            assertThat(flaky.maxAttempts()).isEqualTo(3);
            assertThat(flaky.retryPolicy().delayAfter(1)).isEqualTo(Duration.ofMillis(100));

            ErrandClient client = context.getBean(ErrandClient.class);
            Errand errand = context.getBean(Errand.class);
            Billing billing = context.getBean(Billing.class);
            long flakyId =
                    client.enqueue("flaky-invoice", new Invoice("F-2", 10)).id();
            long doomedId =
                    client.enqueue("doomed-invoice", new Invoice("F-3", 20)).id();

            await().atMost(Duration.ofSeconds(30)).until(() -> !billing.seen.isEmpty());
            assertThat(billing.seen).containsExactly(new Seen(new Invoice("F-2", 10), flakyId, "flaky-invoice", 3));
            assertThat(billing.calls.get("F-2")).hasValue(3);

            await().atMost(Duration.ofSeconds(30))
                    .until(() -> errand.admin().find(doomedId).map(Task::state).orElse(null) == TaskState.FAILED);
            Task doomed = errand.admin().find(doomedId).orElseThrow();
            assertThat(doomed.attempt()).isEqualTo(2);
            assertThat(billing.calls.get("F-3")).hasValue(2);
            assertThat(doomed.lastError())
                    .contains("invoice F-3 is refused")
                    .contains(InvoiceRefused.class.getSimpleName())
                    .doesNotContain("InvocationTargetException");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aProxiedBeansMethodRunsThroughItsProxy(TestDatabase database) {
        runner(database)
                .withBean(Ledger.class)
                .withUserConfiguration(Transactions.class)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(AopUtils.isAopProxy(context.getBean(Ledger.class)))
                            .isTrue();
                    String prefix =
                            context.getBean(DatabaseTables.Dropper.class).prefix();
                    JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
                    jdbc.execute("CREATE TABLE " + prefix + "ledger (number VARCHAR(20))");
                    context.getBean(ErrandClient.class).enqueue("book-invoice", new Invoice("F-4", 5));
                    await().atMost(Duration.ofSeconds(20))
                            .until(() -> jdbc.queryForObject("SELECT COUNT(*) FROM " + prefix + "ledger", Integer.class)
                                    == 1);
                });
    }
}
