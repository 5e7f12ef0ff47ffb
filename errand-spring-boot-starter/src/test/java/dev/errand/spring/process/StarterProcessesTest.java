package dev.errand.spring.process;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.process.AnalysisContext;
import dev.errand.process.BatchContext;
import dev.errand.process.BatchHandler;
import dev.errand.process.ProcessDefinition;
import dev.errand.process.ProcessHandler;
import dev.errand.process.ProcessInfo;
import dev.errand.process.ProcessKind;
import dev.errand.process.ProcessRequest;
import dev.errand.process.ProcessState;
import dev.errand.process.TurnDecision;
import dev.errand.process.TurnInfo;
import dev.errand.process.TurnResult;
import dev.errand.spring.ErrandClient;
import dev.errand.spring.actuate.ErrandEndpoint;
import dev.errand.spring.testing.PostgresTables;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.stereotype.Service;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.transaction.annotation.Transactional;

/**
 * Processes in the starter, on PostgreSQL: a simple and a full process whose handlers are Spring beans, started
 * in a {@code @Transactional} service method (and gone when it rolls back), read through {@link ErrandClient}
 * and the actuator endpoint.
 */
@SpringBootTest(
        classes = StarterProcessesTest.App.class,
        properties = {
            "errand.poll-interval=100ms",
            "errand.queues.default.concurrency=2",
            "errand.shutdown-timeout=5s",
            "management.endpoints.web.exposure.include=errand"
        })
@ContextConfiguration(initializers = PostgresTables.class)
@DirtiesContext
class StarterProcessesTest {

    static final ProcessKind<Integer> SUM = ProcessKind.of("sum", Integer.class);
    static final ProcessKind<Integer> GROW = ProcessKind.of("grow", Integer.class);
    static final ProcessKind<Integer> STRICT = ProcessKind.of("strict", Integer.class);
    static final ProcessKind<Integer> ROLLBACK_ONLY = ProcessKind.of("rollback-only", Integer.class);

    @SpringBootConfiguration
    @EnableAutoConfiguration(
            excludeName = {
                "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration",
                "org.springframework.boot.data.jpa.autoconfigure.DataJpaRepositoriesAutoConfiguration"
            })
    @Import({Totals.class, Summer.class, Grower.class, Starter.class})
    static class App {
        @Bean
        ProcessDefinition<Integer> sumProcess(Summer summer) {
            return ProcessDefinition.simple(SUM, summer);
        }

        @Bean
        ProcessDefinition<Integer> growProcess(Grower grower) {
            return ProcessDefinition.of(GROW, grower);
        }

        /** Retries come quickly, so that a batch task spends its attempts within the test. */
        @Bean
        dev.errand.spring.ErrandBuilderCustomizer quickRetries() {
            return builder -> builder.defaultRetryPolicy(dev.errand.retry.RetryPolicy.fixed(Duration.ofMillis(50)));
        }

        /** Its handler calls a @Transactional method that writes and marks the transaction rollback-only. */
        @Bean
        ProcessDefinition<Integer> rollbackOnlyProcess(Totals totals) {
            return ProcessDefinition.simple(
                    ROLLBACK_ONLY,
                    (items, context) -> totals.addThenMarkRollbackOnly(context.processId(), items.size()));
        }

        /** Its handler calls a @Transactional method that throws the first time, and catches the exception. */
        @Bean
        ProcessDefinition<Integer> strictProcess(Totals totals) {
            return ProcessDefinition.simple(STRICT, (items, context) -> {
                try {
                    totals.addOnceRefused(context.processId(), items.size());
                } catch (IllegalStateException refused) {
                    throw new IllegalStateException("refused", refused);
                }
            });
        }
    }

    /** The application's table of results, and a transactional service the handlers join. */
    @Service
    static class Totals {
        final JdbcTemplate jdbc;
        final String table;

        Totals(JdbcTemplate jdbc, @Value("${errand.table-prefix}") String prefix) {
            this.jdbc = jdbc;
            this.table = prefix + "totals";
            jdbc.execute("CREATE TABLE " + table + " (process VARCHAR(100) NOT NULL, amount INT NOT NULL)");
        }

        @Transactional
        public void add(String process, int amount) {
            jdbc.update("INSERT INTO " + table + " (process, amount) VALUES (?, ?)", process, amount);
        }

        private final java.util.Set<String> refused = java.util.concurrent.ConcurrentHashMap.newKeySet();

        /** Refuses its first call per process, throwing out of a transaction it joined. */
        @Transactional
        public void addOnceRefused(String process, int amount) {
            if (refused.add(process)) {
                throw new IllegalStateException("refused once");
            }
            add(process, amount);
        }

        /** Writes, then marks the transaction it joined rollback-only, without throwing. */
        @Transactional
        public void addThenMarkRollbackOnly(String process, int amount) {
            add(process, amount);
            org.springframework.transaction.interceptor.TransactionAspectSupport.currentTransactionStatus()
                    .setRollbackOnly();
        }

        public long sum(String process) {
            return jdbc.queryForObject(
                    "SELECT COALESCE(SUM(amount), 0) FROM " + table + " WHERE process = ?", Long.class, process);
        }

        public String table() {
            return table;
        }
    }

    /** The simple interface, as a bean. */
    @Component
    static class Summer implements BatchHandler<Integer> {
        final Totals totals;

        Summer(Totals totals) {
            this.totals = totals;
        }

        @Override
        public void handle(List<Integer> items, BatchContext context) {
            totals.add(
                    context.processId(),
                    items.stream().mapToInt(Integer::intValue).sum());
        }
    }

    /** The full interface, as a bean: two turns, the second twice the first's size. */
    @Component
    static class Grower implements ProcessHandler<Integer> {
        final Totals totals;

        Grower(Totals totals) {
            this.totals = totals;
        }

        @Override
        public void execute(List<Integer> items, BatchContext context) {
            totals.add(context.processId(), items.size());
        }

        @Override
        public TurnDecision<Integer> analyse(TurnResult result, AnalysisContext context) {
            if (result.turn() == 2) {
                return TurnDecision.finish();
            }
            return TurnDecision.nextTurn(List.of(List.of(1, 2), List.of(3, 4)));
        }
    }

    /** Starts processes in the caller's Spring transaction. */
    @Service
    static class Starter {
        final ErrandClient errand;

        Starter(ErrandClient errand) {
            this.errand = errand;
        }

        @Transactional
        public String start(ProcessRequest<?> request, boolean thenFail) {
            String id = errand.startProcess(request);
            if (thenFail) {
                throw new IllegalStateException("changed my mind");
            }
            return id;
        }
    }

    @Autowired
    Starter starter;

    @Autowired
    ErrandClient client;

    @Autowired
    Totals totals;

    @Autowired
    ErrandEndpoint endpoint;

    @Value("${errand.table-prefix}")
    String prefix;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void processBeansRunInTheStarterAndAreVisibleThroughTheClientAndTheEndpoint() throws Exception {
        List<Integer> numbers = IntStream.rangeClosed(1, 1_000).boxed().toList();
        try {
            starter.start(
                    ProcessRequest.builder(SUM)
                            .items(numbers)
                            .processId("rolled-back")
                            .build(),
                    true);
        } catch (IllegalStateException expected) {
            // The transaction rolled back, and the process with it.
        }
        assertThat(client.processes().find("rolled-back")).isEmpty();

        String sum = starter.start(ProcessRequest.of(SUM, numbers), false);
        String grow = client.startProcess(ProcessRequest.builder(GROW)
                .items(List.of(1, 2, 3))
                .batchSize(1)
                .build());

        ProcessInfo summed = client.processes().wait(sum, Duration.ofSeconds(30));
        ProcessInfo grown = client.processes().wait(grow, Duration.ofSeconds(30));

        assertThat(summed.state()).isEqualTo(ProcessState.SUCCEEDED);
        assertThat(summed.turns()).extracting(TurnInfo::batches).containsExactly(10);
        assertThat(totals.sum(sum)).isEqualTo(500_500);
        assertThat(grown.state()).isEqualTo(ProcessState.SUCCEEDED);
        assertThat(grown.turns()).extracting(TurnInfo::batches).containsExactly(3, 2);
        assertThat(totals.sum(grow)).isEqualTo(3 + 4);
        assertThat(endpoint.errand().processes()).extracting(ProcessInfo::id).contains(sum, grow);
    }

    @Test
    void aTransactionalMethodThatThrowsInsideABatchMakesTheTaskRetryNotTheTurn() throws Exception {
        String id = client.startProcess(
                ProcessRequest.builder(STRICT).items(List.of(1, 2, 3)).build());

        ProcessInfo info = client.processes().wait(id, Duration.ofSeconds(60));

        // The savepoint undid the writes, but Spring had marked the whole transaction rollback-only: its commit
        // failed, the task ran again, and the batch succeeded in turn 1 on its second attempt.
        assertThat(info.state()).isEqualTo(ProcessState.SUCCEEDED);
        assertThat(info.turns()).extracting(TurnInfo::batches).containsExactly(1);
        assertThat(info.turns()).extracting(TurnInfo::failed).containsExactly(0);
        assertThat(totals.sum(id)).isEqualTo(3);
    }

    @Test
    void aHandlerThatMarksTheTransactionRollbackOnlyWithoutThrowingFailsItsAttemptWithAClearError() throws Exception {
        String id = client.startProcess(ProcessRequest.builder(ROLLBACK_ONLY)
                .items(List.of(1, 2, 3))
                .retries(0)
                .build());

        ProcessInfo info = client.processes().wait(id, Duration.ofSeconds(60));

        // Every attempt failed rather than pass for a success that never commits; after the task's 5 attempts the
        // batch failed with the attempt's error, and with no retries left, the process.
        assertThat(info.state()).isEqualTo(ProcessState.FAILED);
        assertThat(info.turns()).extracting(TurnInfo::failed).containsExactly(1);
        assertThat(info.error())
                .contains("The batch's task failed for good")
                .contains("The handler of batch 1 (turn 1) of process '" + id + "' left its transaction marked"
                        + " rollback-only without throwing")
                .contains("this attempt counts as failed");
        assertThat(totals.sum(id)).isZero();
        assertThat(jdbc.queryForObject(
                        "SELECT attempt FROM " + prefix + "task WHERE kind = 'errand:process:rollback-only:batch'",
                        Integer.class))
                .isEqualTo(5);
    }
}
