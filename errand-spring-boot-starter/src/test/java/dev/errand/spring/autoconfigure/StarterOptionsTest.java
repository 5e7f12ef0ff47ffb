package dev.errand.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.Errand;
import dev.errand.enqueue.Enqueued;
import dev.errand.spring.ErrandClient;
import dev.errand.spring.ErrandConfigurationException;
import dev.errand.spring.ErrandTask;
import dev.errand.spring.ErrandTasks;
import dev.errand.spring.PersistentRunnables;
import dev.errand.spring.testing.PostgresTables;
import dev.errand.task.TaskContext;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskHandler;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.transaction.IllegalTransactionStateException;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Starter options that a Spring user expects: retry delays on {@link ErrandTask}, enqueueing only inside a
 * transaction, and the settings that must stop start-up with a failure analysis that names the property.
 */
class StarterOptionsTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class,
                    DataSourceTransactionManagerAutoConfiguration.class,
                    ErrandAutoConfiguration.class,
                    ErrandTaskExecutorAutoConfiguration.class))
            .withInitializer(new PostgresTables())
            .withPropertyValues("errand.processing-enabled=false");

    @ErrandTask(
            value = "notify",
            retry = ErrandTask.Retry.DELAYS,
            retryDelays = {"10s", "20s", "30s"})
    static class Notify implements TaskHandler<Void> {
        @Override
        public void handle(Void payload, TaskContext context) {}
    }

    @ErrandTask(
            value = "capped",
            retry = ErrandTask.Retry.DELAYS,
            retryDelays = {"1s", "2s"},
            maxAttempts = 7)
    static class Capped implements TaskHandler<Void> {
        @Override
        public void handle(Void payload, TaskContext context) {}
    }

    @ErrandTask(
            value = "confused",
            retryDelays = {"1s"})
    static class Confused implements TaskHandler<Void> {
        @Override
        public void handle(Void payload, TaskContext context) {}
    }

    /** A runnable the task executor may persist. */
    public static class Report implements Runnable {
        @Override
        public void run() {}
    }

    @Test
    void aListOfRetryDelaysSetsThePolicyAndTheAttempts() {
        runner.withBean("notify", Notify.class).withBean("capped", Capped.class).run(context -> {
            assertThat(context).hasNotFailed();
            TaskDefinition<?> notify = context.getBean(ErrandTasks.class)
                    .find("notify")
                    .orElseThrow()
                    .definition();
            assertThat(notify.maxAttempts()).as("one more than the delays").isEqualTo(4);
            assertThat(notify.retryPolicy().delayAfter(1)).isEqualTo(Duration.ofSeconds(10));
            assertThat(notify.retryPolicy().delayAfter(3)).isEqualTo(Duration.ofSeconds(30));
            TaskDefinition<?> capped = context.getBean(ErrandTasks.class)
                    .find("capped")
                    .orElseThrow()
                    .definition();
            assertThat(capped.maxAttempts()).as("set explicitly").isEqualTo(7);
        });
    }

    @Test
    void retryDelaysWithoutRetryDelaysPolicyStopStartUp() {
        runner.withBean("confused", Confused.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure())
                    .rootCause()
                    .hasMessageContaining("retryDelays needs retry = DELAYS");
        });
    }

    @Test
    void requireTransactionRefusesAnEnqueueOutsideATransactionAndAcceptsOneInside() {
        runner.withBean("notify", Notify.class)
                .withPropertyValues("errand.enqueue.require-transaction=true")
                .run(context -> {
                    ErrandClient client = context.getBean(ErrandClient.class);
                    assertThatThrownBy(() -> client.enqueue("notify", null))
                            .isInstanceOf(IllegalTransactionStateException.class)
                            .hasMessageContaining("errand.enqueue.require-transaction");
                    Enqueued inside = new TransactionTemplate(context.getBean(PlatformTransactionManager.class))
                            .execute(status -> client.enqueue("notify", null));
                    assertThat(inside.created()).isTrue();
                    assertThat(context.getBean(Errand.class).admin().find(inside.id()))
                            .isPresent();
                });
        runner.withBean("notify", Notify.class).run(context -> assertThat(context.getBean(ErrandClient.class)
                        .enqueue("notify", null)
                        .created())
                .as("off by default")
                .isTrue());
    }

    @Test
    void aTaskExecutorQueueThatIsNotDeclaredStopsStartUp() {
        runner.withBean(PersistentRunnables.class, () -> PersistentRunnables.of(Report.class))
                .withPropertyValues("errand.task-executor.queue=reports")
                .run(context -> {
                    assertThat(context).hasFailed();
                    ErrandConfigurationException failure =
                            findCause(context.getStartupFailure(), ErrandConfigurationException.class);
                    assertThat(failure.description()).contains("errand.task-executor.queue is 'reports'");
                    assertThat(failure.action()).contains("errand.queues.reports.concurrency");
                });
        runner.withBean(PersistentRunnables.class, () -> PersistentRunnables.of(Report.class))
                .withPropertyValues("errand.task-executor.queue=reports", "errand.queues.reports.concurrency=2")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void aDialectThatDoesNotFitTheDatabaseGetsAFailureAnalysisNamingTheProperty() {
        runner.withPropertyValues("errand.dialect=mariadb").run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = new ErrandFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).contains("errand.dialect=mariadb");
            assertThat(analysis.getAction()).contains("remove errand.dialect");
        });
        runner.withPropertyValues("errand.dialect=oracle").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure())
                    .rootCause()
                    .hasMessageContaining("errand.dialect must be one of postgresql, mariadb, mysql, h2");
        });
    }

    @Test
    void aNodeIdSuffixGivesAStableIdFromTheHostAndBadOnesStopStartUp() {
        runner.withPropertyValues("errand.node-id-suffix=worker", "errand.node-retention=2d")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Errand errand = context.getBean(Errand.class);
                    assertThat(errand.settings().nodeId())
                            .isEqualTo(dev.errand.config.NodeIds.of(
                                    dev.errand.config.NodeIds.hostName().orElseThrow(), "worker"));
                    assertThat(errand.settings().nodeRetention()).isEqualTo(Duration.ofDays(2));
                });
        runner.withPropertyValues("errand.node-id-suffix=two words").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("errand.node-id-suffix");
        });
        runner.withPropertyValues("errand.node-id-suffix=a", "errand.node-id=b").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("conflict");
        });
        runner.withPropertyValues("errand.node-retention=10s").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("errand.node-retention");
        });
    }

    private static <T extends Throwable> T findCause(Throwable failure, Class<T> type) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        throw new AssertionError("no " + type.getSimpleName() + " in " + failure);
    }
}
