package dev.errand.spring.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.spring.ErrandClient;
import dev.errand.spring.ErrandTask;
import dev.errand.spring.autoconfigure.ErrandAutoConfiguration;
import dev.errand.spring.testing.DatabaseTables;
import dev.errand.task.TaskContext;
import dev.errand.task.TaskDefinition;
import dev.errand.testkit.TestDatabase;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The log lines of a task's attempts, captured from Logback: the handler's own lines and Errand's carry the task
 * id, kind and attempt in the MDC; a retried attempt is a WARN with the delay before the next one, the final
 * failure an ERROR with the exception, an unknown kind an ERROR that says what to register.
 */
class TaskLogLinesTest {

    static final String HANDLER_LOGGER = "test.invoices";

    static List<TestDatabase> databases() {
        return TestDatabase.selected().stream()
                .filter(database -> database == TestDatabase.POSTGRES || database == TestDatabase.H2)
                .toList();
    }

    record Invoice(String number) {}

    /** Logs a line, then fails: two attempts, 100 ms apart. */
    static class Invoices {
        @ErrandTask(kind = "refused-invoice", maxAttempts = 2, retry = ErrandTask.Retry.FIXED, retryDelay = "100ms")
        public void send(Invoice invoice, TaskContext context) {
            LoggerFactory.getLogger(HANDLER_LOGGER).info("sending invoice {}", invoice.number());
            throw new IllegalStateException("invoice " + invoice.number() + " refused");
        }
    }

    private final Captured events = new Captured();
    private final List<Logger> loggers = List.of(logger("dev.errand.tasks"), logger(HANDLER_LOGGER));

    @BeforeEach
    void capture() {
        events.start();
        loggers.forEach(logger -> {
            logger.setLevel(Level.INFO);
            logger.addAppender(events);
        });
    }

    @AfterEach
    void release() {
        loggers.forEach(logger -> logger.detachAppender(events));
    }

    private static Logger logger(String name) {
        return (Logger) LoggerFactory.getLogger(name);
    }

    private static ApplicationContextRunner runner(TestDatabase database) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        DataSourceAutoConfiguration.class,
                        DataSourceTransactionManagerAutoConfiguration.class,
                        ErrandAutoConfiguration.class))
                .withInitializer(new DatabaseTables(database) {})
                .withPropertyValues("errand.poll-interval=100ms")
                .withBean(Invoices.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aRetriedAttemptIsAWarnAndTheLastAnErrorBothWithTheTaskInTheMdc(TestDatabase database) {
        runner(database).run(context -> {
            long id = context.getBean(ErrandClient.class)
                    .enqueue("refused-invoice", new Invoice("F-7"))
                    .id();
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> lines(Level.ERROR).size() == 1);

            List<ILoggingEvent> handler = events.list.stream()
                    .filter(event -> event.getLoggerName().equals(HANDLER_LOGGER))
                    .toList();
            assertThat(handler).hasSize(2);
            for (int attempt = 1; attempt <= 2; attempt++) {
                assertThat(handler.get(attempt - 1).getMDCPropertyMap())
                        .containsAllEntriesOf(mdc(id, "refused-invoice", attempt));
            }

            ILoggingEvent retried = lines(Level.WARN).get(0);
            assertThat(retried.getFormattedMessage())
                    .contains("Task " + id + " (refused-invoice) attempt 1 of 2 failed")
                    .contains("invoice F-7 refused")
                    .contains("retrying in PT0.1S");
            assertThat(retried.getMDCPropertyMap()).containsAllEntriesOf(mdc(id, "refused-invoice", 1));

            ILoggingEvent failed = lines(Level.ERROR).get(0);
            assertThat(failed.getFormattedMessage())
                    .contains("Task " + id + " (refused-invoice) failed for good after attempt 2 of 2");
            assertThat(failed.getThrowableProxy().getMessage()).isEqualTo("invoice F-7 refused");
            assertThat(failed.getMDCPropertyMap()).containsAllEntriesOf(mdc(id, "refused-invoice", 2));
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void anUnknownKindIsAnErrorThatSaysWhatToRegister(TestDatabase database) {
        runner(database).run(context -> {
            // Another node, which knows the kind, enqueues it; this node claims it and has no handler.
            Errand other = Errand.builder(context.getBean(DataSource.class))
                    .tablePrefix(context.getBean(DatabaseTables.Dropper.class).prefix())
                    .processingEnabled(false)
                    .register(TaskDefinition.builder("ghost-invoice", Invoice.class, (invoice, ctx) -> {})
                            .build())
                    .build();
            long id;
            try {
                id = other.enqueue(TaskRequest.builder("ghost-invoice", new Invoice("F-8"))
                                .build())
                        .id();
            } finally {
                other.close();
            }
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> !lines(Level.ERROR).isEmpty());
            ILoggingEvent unknown = lines(Level.ERROR).get(0);
            assertThat(unknown.getFormattedMessage())
                    .contains("No handler is registered for kind 'ghost-invoice'")
                    .contains("task " + id + ", attempt 1")
                    .contains("register a TaskDefinition for it on the nodes that serve queue 'default'");
            assertThat(unknown.getMDCPropertyMap()).containsAllEntriesOf(mdc(id, "ghost-invoice", 1));
        });
    }

    /** Keeps the events; the workers append while the test reads. */
    static final class Captured extends AppenderBase<ILoggingEvent> {
        final List<ILoggingEvent> list = new CopyOnWriteArrayList<>();

        @Override
        protected void append(ILoggingEvent event) {
            event.prepareForDeferredProcessing();
            list.add(event);
        }
    }

    private List<ILoggingEvent> lines(Level level) {
        return events.list.stream()
                .filter(event -> event.getLoggerName().equals("dev.errand.tasks") && event.getLevel() == level)
                .toList();
    }

    private static Map<String, String> mdc(long id, String kind, int attempt) {
        return Map.of(
                "errand.task.id", Long.toString(id),
                "errand.task.kind", kind,
                "errand.task.attempt", Integer.toString(attempt));
    }
}
