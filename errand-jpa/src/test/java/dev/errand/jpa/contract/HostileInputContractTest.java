package dev.errand.jpa.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.jpa.EntityQueue;
import dev.errand.jpa.EntityQueues;
import dev.errand.jpa.internal.IndexCheck;
import dev.errand.jpa.internal.MappingReader;
import dev.errand.jpa.internal.QueueTable;
import dev.errand.jpa.queue.EntityQueueDefinition;
import dev.errand.jpa.state.QueueState;
import dev.errand.jpa.state.QueueStatus;
import dev.errand.jpa.testing.Message;
import dev.errand.jpa.testing.QueueTestSupport;
import dev.errand.jpa.testing.Unindexed;
import dev.errand.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.hibernate.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a processor, a retry policy or a schema can throw at a queue: hostile error texts are stored, a
 * broken retry policy still schedules a retry, the queue keeps running, and a table without the recommended
 * index is found.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.jpa.testing.Databases#all")
class HostileInputContractTest extends QueueTestSupport {

    private static final Duration WAIT = Duration.ofSeconds(20);

    HostileInputContractTest(TestDatabase database) {
        super(database);
    }

    @Test
    void hostileErrorTextsAreStoredAndTheQueueKeepsRunning() {
        long nul = save(1, message -> message.note("nul")).get(0);
        long longText = save(1, message -> message.note("long")).get(0);
        long unreadable = save(1, message -> message.note("unreadable")).get(0);
        long fine = save(1, message -> message.note("fine")).get(0);
        started(node().register(sending((message, context) -> {
                    switch (message.note()) {
                        case "nul" -> throw new IllegalStateException("before\u0000after");
                        case "long" -> throw new IllegalStateException("x".repeat(5_000));
                        case "unreadable" ->
                            throw new IllegalStateException() {
                                @Override
                                public String getMessage() {
                                    throw new UnsupportedOperationException("no message for you");
                                }
                            };
                        default -> message.sent();
                    }
                })
                .maxAttempts(1)
                .build()));

        await().atMost(WAIT)
                .until(() -> load(nul).sendState().status() == QueueStatus.FAILED
                        && load(longText).sendState().status() == QueueStatus.FAILED
                        && load(unreadable).sendState().status() == QueueStatus.FAILED
                        && load(fine).sendState().status() == QueueStatus.DONE);
        assertThat(load(nul).sendState().lastError()).isEqualTo("java.lang.IllegalStateException: before\uFFFDafter");
        assertThat(load(longText).sendState().lastError())
                .hasSize(QueueState.ERROR_LENGTH)
                .startsWith("java.lang.IllegalStateException: xxx")
                .endsWith("x…");
        assertThat(load(unreadable).sendState().lastError())
                .contains("its message could not be read")
                .contains(UnsupportedOperationException.class.getName());
    }

    @Test
    void aRetryPolicyThatBreaksStillSchedulesARetryAMinuteLater() throws Exception {
        long id = save(1).get(0);
        started(node().register(sending((message, context) -> {
                    throw new IllegalStateException("fails");
                })
                .retryPolicy(failedAttempt -> {
                    throw new ArithmeticException("policy bug");
                })
                .build()));

        await().atMost(WAIT).until(() -> load(id).sendState().lastError() != null);
        Instant now = databaseNow();
        QueueState state = load(id).sendState();
        assertThat(state.status()).isEqualTo(QueueStatus.PENDING);
        assertThat(state.nextAttemptAt()).isBetween(now.plusSeconds(50), now.plusSeconds(61));
    }

    @Test
    void anEntityWithAStringIdAndDefaultColumnNamesIsAQueueToo() {
        emf.runInTransaction(em -> {
            em.persist(new Unindexed("first"));
            em.persist(new Unindexed("second"));
        });
        Set<String> processed = ConcurrentHashMap.newKeySet();
        EntityQueues node = started(node().indexCheck(false)
                .register(EntityQueueDefinition.builder(
                                Unindexed.class, "state", (item, context) -> processed.add(item.id()))
                        .pollInterval(Duration.ofMillis(50))
                        .build()));
        EntityQueue<Unindexed> queue = node.queue("Unindexed.state", Unindexed.class);

        await().atMost(WAIT).until(() -> queue.countByStatus().get(QueueStatus.DONE) == 2);
        assertThat(processed).containsExactlyInAnyOrder("first", "second");
    }

    @Test
    void theIndexCheckFindsAMissingIndexAndTheRecommendedOneSatisfiesIt() throws Exception {
        EntityQueues node =
                built(node().register(EntityQueueDefinition.builder(Unindexed.class, "state", (item, context) -> {})
                        .build()));
        EntityQueue<Unindexed> unindexed = node.queue("Unindexed.state", Unindexed.class);
        String create = unindexed.recommendedIndex();
        assertThat(create)
                .isEqualTo("CREATE INDEX " + prefix + "jpa_unindexed_status_due ON " + prefix
                        + "jpa_unindexed (status, next_attempt_at)");

        assertThat(check(Unindexed.class)).isEqualTo(IndexCheck.Result.MISSING);
        assertThat(check(Message.class))
                .as("@Index(columnList = ...) on the entity")
                .isEqualTo(IndexCheck.Result.PRESENT);
        try (Connection connection = database.dataSource().getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute(create);
        }
        assertThat(check(Unindexed.class)).isEqualTo(IndexCheck.Result.PRESENT);
        QueueTable real = table(Unindexed.class);
        QueueTable missing = new QueueTable(
                real.entityName(), prefix + "no_such_table", real.id(), real.idType(), null, real.columns());
        assertThat(check(missing)).isEqualTo(IndexCheck.Result.NO_TABLE);
    }

    private QueueTable table(Class<?> entity) {
        return new MappingReader(emf).read(entity, entity == Message.class ? "sendState" : "state");
    }

    private IndexCheck.Result check(Class<?> entity) {
        return check(table(entity));
    }

    private IndexCheck.Result check(QueueTable table) {
        return emf.callInTransaction(
                em -> em.unwrap(Session.class).doReturningWork(connection -> IndexCheck.check(connection, table)));
    }
}
