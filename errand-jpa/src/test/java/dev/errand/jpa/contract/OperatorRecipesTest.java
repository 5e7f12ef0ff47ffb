package dev.errand.jpa.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.jpa.EntityQueue;
import dev.errand.jpa.EntityQueues;
import dev.errand.jpa.state.QueueStatus;
import dev.errand.jpa.testing.Message;
import dev.errand.jpa.testing.QueueTestSupport;
import dev.errand.testkit.TestDatabase;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The operator's SQL recipes of docs/JPA-QUEUES.md, run as written there (with the test's table name) on
 * each database: count pending items by a domain field, list the failures of items last tried after a time,
 * reset the failed items so that the queue picks them up.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.jpa.testing.Databases#all")
class OperatorRecipesTest extends QueueTestSupport {

    OperatorRecipesTest(TestDatabase database) {
        super(database);
    }

    @Test
    void theDocumentedRecipesWork() {
        save(3, message -> message.note("80111"));
        save(2, message -> message.note("80333"));
        String table = prefix + "jpa_message";

        List<?> pendingBySender = emf.callInTransaction(em -> em.createNativeQuery("SELECT note, COUNT(*) FROM " + table
                        + " WHERE send_status = 'PENDING' GROUP BY note" + " ORDER BY note")
                .getResultList());
        assertThat(pendingBySender).hasSize(2);
        assertThat(((Object[]) pendingBySender.get(0))[0]).isEqualTo("80111");
        assertThat(((Number) ((Object[]) pendingBySender.get(0))[1]).longValue())
                .isEqualTo(3);

        EntityQueues node = started(node().register(sending((message, context) -> {
                    throw new IllegalStateException("gateway down for " + message.note());
                })
                .maxAttempts(1)
                .build()));
        EntityQueue<Message> queue = node.queue("send", Message.class);
        await().atMost(Duration.ofSeconds(20)).until(() -> queue.countByStatus().get(QueueStatus.FAILED) == 5);
        node.stop(Duration.ofSeconds(5));

        String since =
                switch (database) {
                    case POSTGRES -> "TIMESTAMPTZ '2020-01-01 08:00:00+00'";
                    case MARIADB -> "'2020-01-01 08:00:00'";
                    default -> "TIMESTAMP WITH TIME ZONE '2020-01-01 08:00:00+00'";
                };
        List<?> errors = emf.callInTransaction(em -> em.createNativeQuery("SELECT id, send_last_attempt_at,"
                        + " send_last_error FROM " + table + " WHERE send_status = 'FAILED' AND send_last_attempt_at > "
                        + since + " ORDER BY send_last_attempt_at DESC")
                .getResultList());
        assertThat(errors).hasSize(5).allSatisfy(row -> assertThat((String) ((Object[]) row)[2])
                .startsWith("java.lang.IllegalStateException: gateway down for 80"));

        int reset = emf.callInTransaction(em -> em.createNativeQuery("UPDATE " + table
                        + " SET send_status = 'PENDING', send_next_attempt_at = NULL, send_attempts = 0,"
                        + " version = version + 1 WHERE send_status = 'FAILED'")
                .executeUpdate());
        assertThat(reset).isEqualTo(5);
        EntityQueues again = started(
                node().register(sending((message, context) -> message.sent()).build()));
        await().atMost(Duration.ofSeconds(20))
                .until(() -> again.queue("send", Message.class).countByStatus().get(QueueStatus.DONE) == 5);
    }
}
