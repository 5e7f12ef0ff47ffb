package dev.errand.spring.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.admin.TaskQuery;
import dev.errand.spi.TransactionRunner;
import dev.errand.spring.ErrandClient;
import dev.errand.spring.ErrandTask;
import dev.errand.spring.SpringTransactionRunner;
import dev.errand.spring.testing.PostgresTables;
import dev.errand.task.Task;
import dev.errand.task.TaskContext;
import dev.errand.task.TaskHandler;
import dev.errand.task.TaskState;
import java.time.Duration;
import org.hibernate.boot.model.naming.Identifier;
import org.hibernate.boot.model.naming.PhysicalNamingStrategyStandardImpl;
import org.hibernate.engine.jdbc.env.spi.JdbcEnvironment;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.stereotype.Service;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.Transactional;

/**
 * Handlers that use Spring Data JPA, {@code JdbcTemplate} and {@code @Transactional} services under
 * Spring Boot's {@link JpaTransactionManager}, on PostgreSQL: the entity change, the other writes and the
 * task's completion commit together, and roll back together when the handler throws.
 */
@SpringBootTest(
        classes = JpaTransactionsTest.App.class,
        properties = {
            "errand.poll-interval=100ms",
            "errand.shutdown-timeout=5s",
            "spring.jpa.hibernate.ddl-auto=create",
            "spring.jpa.open-in-view=false"
        })
@ContextConfiguration(initializers = PostgresTables.class)
@DirtiesContext
class JpaTransactionsTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({Accounts.class, Audit.class, CreditAccount.class})
    static class App {
        /** Puts the test's prefix in front of every entity table, so concurrent runs do not collide. */
        @Bean
        PhysicalNamingStrategyStandardImpl prefixedTables(@Value("${errand.table-prefix}") String prefix) {
            return new PhysicalNamingStrategyStandardImpl() {
                @Override
                public Identifier toPhysicalTableName(Identifier name, JdbcEnvironment environment) {
                    return Identifier.toIdentifier(prefix + name.getText());
                }
            };
        }
    }

    record Credit(long accountId, long amount) {}

    @Service
    static class Accounts {
        final AccountRepository repository;
        final ErrandClient errand;

        Accounts(AccountRepository repository, ErrandClient errand) {
            this.repository = repository;
            this.errand = errand;
        }

        /** Opens an account and enqueues its welcome credit in one JPA transaction; throws after both if asked. */
        @Transactional
        public long open(long accountId, boolean thenFail) {
            repository.save(new Account(accountId));
            long taskId = errand.enqueue("credit", new Credit(accountId, 100)).id();
            if (thenFail) {
                throw new IllegalStateException("identity check failed");
            }
            return taskId;
        }
    }

    /** A transactional service with plain JDBC that the handler calls. */
    @Service
    static class Audit {
        final JdbcTemplate jdbc;
        final String table;

        Audit(JdbcTemplate jdbc, @Value("${errand.table-prefix}") String prefix) {
            this.jdbc = jdbc;
            this.table = prefix + "audit";
            jdbc.execute("CREATE TABLE " + table + " (account_id BIGINT NOT NULL)");
        }

        @Transactional
        public void credited(long accountId) {
            jdbc.update("INSERT INTO " + table + " (account_id) VALUES (?)", accountId);
        }

        public int entries(long accountId) {
            return jdbc.queryForObject(
                    "SELECT COUNT(*) FROM " + table + " WHERE account_id = ?", Integer.class, accountId);
        }
    }

    @ErrandTask(value = "credit", maxAttempts = 2, retry = ErrandTask.Retry.FIXED, retryDelay = "100ms")
    static class CreditAccount implements TaskHandler<Credit> {
        static final long FAIL_FIRST_ATTEMPT = 2;
        static final long ALWAYS_FAIL = 3;

        final AccountRepository repository;
        final Audit audit;

        CreditAccount(AccountRepository repository, Audit audit) {
            this.repository = repository;
            this.audit = audit;
        }

        @Override
        public void handle(Credit credit, TaskContext context) {
            // A managed entity: the change is flushed when the task's transaction commits.
            repository.findById(credit.accountId()).orElseThrow().credit(credit.amount());
            audit.credited(credit.accountId());
            if (credit.accountId() == ALWAYS_FAIL
                    || (credit.accountId() == FAIL_FIRST_ATTEMPT && context.attempt() == 1)) {
                throw new IllegalStateException("core banking is down (attempt " + context.attempt() + ")");
            }
        }
    }

    @Autowired
    Accounts accounts;

    @Autowired
    AccountRepository repository;

    @Autowired
    Audit audit;

    @Autowired
    Errand errand;

    @Autowired
    PlatformTransactionManager transactionManager;

    @Autowired
    TransactionRunner transactionRunner;

    @Test
    void handlersRunInTransactionsOfTheJpaTransactionManager() {
        assertThat(transactionManager).isInstanceOf(JpaTransactionManager.class);
        assertThat(((SpringTransactionRunner) transactionRunner).transactionManager())
                .isSameAs(transactionManager);
    }

    @Test
    void theEntityChangeAndTheTaskCompletionCommitTogether() {
        long taskId = accounts.open(1, false);

        await().atMost(Duration.ofSeconds(15))
                .until(() -> errand.admin().find(taskId).isEmpty());
        assertThat(repository.findById(1L).orElseThrow().getBalance()).isEqualTo(100);
        assertThat(audit.entries(1)).isEqualTo(1);
    }

    @Test
    void theEntityChangeRollsBackWithTheAttemptWhenTheHandlerThrows() {
        long retried = accounts.open(CreditAccount.FAIL_FIRST_ATTEMPT, false);
        long failed = accounts.open(CreditAccount.ALWAYS_FAIL, false);

        await().atMost(Duration.ofSeconds(15))
                .until(() -> errand.admin().find(retried).isEmpty());
        // Attempt 1 credited 100 and threw; had its writes committed, the balance would be 200.
        assertThat(repository
                        .findById(CreditAccount.FAIL_FIRST_ATTEMPT)
                        .orElseThrow()
                        .getBalance())
                .isEqualTo(100);
        assertThat(audit.entries(CreditAccount.FAIL_FIRST_ATTEMPT)).isEqualTo(1);

        await().atMost(Duration.ofSeconds(15)).until(() -> errand.admin()
                .find(failed)
                .map(task -> task.state() == TaskState.FAILED)
                .orElse(false));
        Task task = errand.admin().find(failed).orElseThrow();
        assertThat(task.lastError()).contains("core banking is down (attempt 2)");
        assertThat(repository.findById(CreditAccount.ALWAYS_FAIL).orElseThrow().getBalance())
                .isZero();
        assertThat(audit.entries(CreditAccount.ALWAYS_FAIL)).isZero();
    }

    @Test
    void rollbackOfAJpaServiceMethodLeavesNoTaskAndNoEntity() {
        assertThatThrownBy(() -> accounts.open(4, true)).hasMessage("identity check failed");

        assertThat(repository.findById(4L)).isEmpty();
        assertThat(errand.admin()
                        .list(TaskQuery.builder().kind("credit").limit(1000).build())
                        .items())
                .noneMatch(t -> t.payloadJson().replace(" ", "").contains("\"accountId\":4,"));
    }
}
