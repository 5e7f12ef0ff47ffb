package dev.errand.spring.pooling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.spring.ErrandClient;
import dev.errand.spring.ErrandTask;
import dev.errand.spring.autoconfigure.ErrandAutoConfiguration;
import dev.errand.task.TaskContext;
import dev.errand.task.TaskHandler;
import dev.errand.testkit.PgBouncer;
import dev.errand.testkit.TestDatabase;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The starter behind PgBouncer in transaction mode: {@code errand.notifications.url} gives a direct connection to
 * listen on, so that a task enqueued through PgBouncer wakes the node although it polls once an hour; a URL that is
 * not PostgreSQL's is refused with what to set.
 */
@EnabledIf("postgresSelected")
class PgBouncerStarterTest {

    static final CountDownLatch RAN = new CountDownLatch(1);

    @ErrandTask("bounced")
    static class Bounced implements TaskHandler<Void> {
        @Override
        public void handle(Void payload, TaskContext context) {
            RAN.countDown();
        }
    }

    static boolean postgresSelected() {
        return TestDatabase.selected().contains(TestDatabase.POSTGRES);
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class,
                    DataSourceTransactionManagerAutoConfiguration.class,
                    ErrandAutoConfiguration.class))
            .withBean(Bounced.class);

    @Test
    void aDirectConnectionToListenOnWakesTheNodeBehindATransactionPool() throws Exception {
        String prefix = TestDatabase.newPrefix();
        try (PgBouncer bouncer = PgBouncer.start(PgBouncer.PoolMode.TRANSACTION)) {
            runner.withPropertyValues(
                            "spring.datasource.url=" + bouncer.url("prepareThreshold=0"),
                            "spring.datasource.username=postgres",
                            "spring.datasource.password=",
                            "errand.table-prefix=" + prefix,
                            "errand.poll-interval=1h",
                            "errand.notifications.url=" + TestDatabase.POSTGRES.url(),
                            "errand.notifications.username=postgres")
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        context.getBean(ErrandClient.class).enqueue("bounced", null);
                        assertThat(RAN.await(15, TimeUnit.SECONDS))
                                .as("woken by a notification, not by the hourly poll")
                                .isTrue();
                    });
        } finally {
            TestDatabase.POSTGRES.dropTables(prefix);
        }
    }

    @Test
    void aListenUrlThatIsNotPostgresIsRefusedWithWhatToSet() {
        runner.withPropertyValues(
                        "spring.datasource.url=jdbc:h2:mem:bouncer", "errand.notifications.url=jdbc:h2:mem:other")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("errand.notifications.url must be a PostgreSQL JDBC URL"));
    }
}
