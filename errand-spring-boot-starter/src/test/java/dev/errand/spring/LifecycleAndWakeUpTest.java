package dev.errand.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.Errand;
import dev.errand.spring.autoconfigure.ErrandAutoConfiguration;
import dev.errand.task.TaskContext;
import dev.errand.task.TaskHandler;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The node's lifecycle follows the context, and a task enqueued in a transaction wakes the poller when
 * the transaction commits. This runs on H2: PostgreSQL's NOTIFY would wake the poller anyway and hide a
 * missing after-commit wake-up.
 */
class LifecycleAndWakeUpTest {

    static final CountDownLatch STARTED = new CountDownLatch(1);
    static final AtomicBoolean FINISHED = new AtomicBoolean();
    static final CountDownLatch RAN = new CountDownLatch(1);
    static final CountDownLatch ANOTHER = new CountDownLatch(2);

    @ErrandTask("slow")
    static class Slow implements TaskHandler<Void> {
        @Override
        public void handle(Void payload, TaskContext context) throws InterruptedException {
            STARTED.countDown();
            Thread.sleep(700); // slow on purpose: stop() must wait for it
            FINISHED.set(true);
        }
    }

    @ErrandTask("ping")
    static class Ping implements TaskHandler<Void> {
        @Override
        public void handle(Void payload, TaskContext context) {
            RAN.countDown();
            ANOTHER.countDown();
        }
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class,
                    DataSourceTransactionManagerAutoConfiguration.class,
                    ErrandAutoConfiguration.class))
            .withPropertyValues(
                    "spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID(),
                    "errand.poll-interval=1h",
                    "errand.shutdown-timeout=10s")
            .withBean(Slow.class)
            .withBean(Ping.class);

    @Test
    void startsAfterRefreshAndStopsGracefullyWhenTheContextCloses() throws Exception {
        Errand[] node = new Errand[1];
        runner.run(context -> {
            node[0] = context.getBean(Errand.class);
            assertThat(node[0].isRunning()).isTrue();
            assertThat(context.getBean(ErrandLifecycle.class).isRunning()).isTrue();
            context.getBean(ErrandClient.class).enqueue("slow", null);
            assertThat(STARTED.await(10, TimeUnit.SECONDS)).isTrue();
        });
        // The runner closed the context: the stop waited for the running task before the pool closed.
        assertThat(node[0].isRunning()).isFalse();
        assertThat(FINISHED).isTrue();
    }

    @Test
    void aNodeWithProcessingOffStartsNothingButEnqueues() {
        runner.withPropertyValues("errand.processing-enabled=false").run(context -> {
            Errand errand = context.getBean(Errand.class);
            assertThat(errand.isRunning()).isFalse();
            long id = context.getBean(ErrandClient.class).enqueue("ping", null).id();
            assertThat(errand.admin().find(id)).isPresent();
        });
    }

    @Test
    void aTaskEnqueuedInATransactionWakesThePollerWhenItCommits() {
        runner.run(context -> {
            ErrandClient client = context.getBean(ErrandClient.class);
            new TransactionTemplate(context.getBean(PlatformTransactionManager.class))
                    .executeWithoutResult(status -> client.enqueue("ping", null));
            // With a one-hour poll interval only the after-commit wake-up can make it run now.
            assertThat(RAN.await(10, TimeUnit.SECONDS)).isTrue();
            client.enqueue("ping", null);
            assertThat(ANOTHER.await(10, TimeUnit.SECONDS))
                    .as("woken by the enqueue outside a transaction")
                    .isTrue();
        });
    }
}
