package dev.errand.spring.executor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.admin.TaskQuery;
import dev.errand.spring.ErrandTaskExecutor;
import dev.errand.spring.PersistentRunnables;
import dev.errand.spring.testing.PostgresTables;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.task.TaskExecutor;
import org.springframework.core.task.TaskRejectedException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.stereotype.Component;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/** The persistent {@link TaskExecutor}: JSON storage, injection after decoding, transactions, rejection. */
@SpringBootTest(
        classes = ErrandTaskExecutorTest.App.class,
        properties = {"errand.poll-interval=100ms", "errand.shutdown-timeout=5s"})
@ContextConfiguration(initializers = PostgresTables.class)
@DirtiesContext
class ErrandTaskExecutorTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration(
            excludeName = {
                "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration",
                "org.springframework.boot.data.jpa.autoconfigure.DataJpaRepositoriesAutoConfiguration"
            })
    @Import(ReportLog.class)
    static class App {
        @Bean
        PersistentRunnables persistentRunnables() {
            return PersistentRunnables.of(SendReport.class);
        }
    }

    /** Where runs are recorded: a bean that the runnables get injected. */
    @Component
    static class ReportLog {
        final List<String> sent = new CopyOnWriteArrayList<>();

        void sent(String reportId, boolean inTransaction) {
            sent.add(reportId + (inTransaction ? " in a transaction" : " outside a transaction"));
        }
    }

    /** A persistent runnable: its state is JSON, its dependency is injected on the worker. */
    public static class SendReport implements Runnable {
        public String reportId;

        @Autowired
        private ReportLog log;

        public SendReport() {}

        SendReport(String reportId) {
            this.reportId = reportId;
        }

        @Override
        public void run() {
            log.sent(reportId, TransactionSynchronizationManager.isActualTransactionActive());
        }
    }

    /** Not declared in any PersistentRunnables bean. */
    static class Unregistered implements Runnable {
        @Override
        public void run() {}
    }

    @Autowired
    ErrandTaskExecutor executor;

    @Autowired
    TaskExecutor plainTaskExecutor;

    @Autowired
    ReportLog log;

    @Autowired
    PlatformTransactionManager transactionManager;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    Errand errand;

    @Value("${errand.table-prefix}")
    String prefix;

    @Test
    void leavesSpringBootsExecutorAsTheDefaultTaskExecutor() {
        assertThat(plainTaskExecutor).isInstanceOf(ThreadPoolTaskExecutor.class);
        assertThat(executor.kinds()).containsEntry(SendReport.class, SendReport.class.getName());
    }

    @Test
    void storesTheRunnableAsJsonInTheCallersTransactionAndRunsItWithItsDependencies() {
        TransactionTemplate template = new TransactionTemplate(transactionManager);
        String json = template.execute(status -> {
            executor.execute(new SendReport("r-1"));
            // The same transaction sees its own insert.
            return jdbc.queryForObject(
                    "SELECT payload::text FROM " + prefix + "task WHERE kind = ?",
                    String.class,
                    SendReport.class.getName());
        });
        assertThat(json).isEqualTo("{\"reportId\": \"r-1\"}");

        await().atMost(Duration.ofSeconds(10)).until(() -> log.sent.contains("r-1 in a transaction"));
    }

    @Test
    void aRolledBackTransactionTakesTheRunnableWithIt() {
        new TransactionTemplate(transactionManager).executeWithoutResult(status -> {
            executor.execute(new SendReport("r-2"));
            status.setRollbackOnly();
        });
        assertThat(errand.admin()
                        .list(TaskQuery.builder()
                                .kind(SendReport.class.getName())
                                .build())
                        .items())
                .noneMatch(task -> task.payloadJson().contains("r-2"));
    }

    @Test
    void outsideATransactionTheRunnableIsCommittedAtOnce() {
        executor.execute(new SendReport("r-3"));
        await().atMost(Duration.ofSeconds(10)).until(() -> log.sent.contains("r-3 in a transaction"));
    }

    @Test
    void rejectsRunnablesThatAreNotDeclaredAndSaysHowToDeclareThem() {
        assertThatThrownBy(() -> executor.execute(new Unregistered()))
                .isInstanceOf(TaskRejectedException.class)
                .hasMessageContaining(Unregistered.class.getName() + " is not one")
                .hasMessageContaining("PersistentRunnables.of(Unregistered.class)");
        Runnable lambda = () -> {};
        assertThatThrownBy(() -> executor.execute(lambda))
                .isInstanceOf(TaskRejectedException.class)
                .hasMessageContaining("PersistentRunnables");
    }

    @Test
    void schedulesARunnableForLaterAndRunsItThen() {
        Instant startTime = Instant.now().plusSeconds(2).truncatedTo(ChronoUnit.MILLIS);
        long id = executor.schedule(new SendReport("r-4"), startTime).id();

        assertThat(errand.admin().find(id).orElseThrow().runAt()).isEqualTo(startTime);
        assertThat(log.sent).noneMatch(sent -> sent.startsWith("r-4"));
        await().atMost(Duration.ofSeconds(15)).until(() -> log.sent.contains("r-4 in a transaction"));
        assertThat(Instant.now()).isAfterOrEqualTo(startTime);

        assertThatThrownBy(() -> executor.schedule(new SendReport("r-5"), null))
                .isInstanceOf(TaskRejectedException.class)
                .hasMessageContaining("execute(task)");
        assertThatThrownBy(() -> executor.schedule(new SendReport("r-6"), Instant.MAX))
                .isInstanceOf(TaskRejectedException.class)
                .hasMessageContaining("runAt must be between");
    }
}
