package dev.errand.examples.sms;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.Errand;
import dev.errand.admin.TaskQuery;
import dev.errand.task.TaskState;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The demo on its H2 file database outlives its pool's connections: with the shortest max-lifetime Hikari
 * allows (30 s) and a run of about 36 s, every connection opened at start-up is retired and replaced while
 * tasks run, and every message still reaches a final state. (On H2 2.4.240 the task table's constraints
 * used to break once the session that created them had closed.)
 *
 * <p>The run's length: no random failures, so 125 messages take one send and the 15 numbers the gateway
 * does not know (ending in 00) four; 185 sends of 0.8 s on average on 4 workers.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = {
            "sms.h2-file=./target/sms-demo-max-lifetime/${random.uuid}",
            "spring.datasource.hikari.max-lifetime=30000",
            "sms.messages=140",
            "sms.send-time=800ms",
            "sms.failure-rate=0",
            "sms.retry-delay=50ms",
            "sms.retry-max-delay=200ms",
            "sms.exit-when-done=false"
        })
class SmsDemoMaxLifetimeTest {

    private static final Duration MAX_LIFETIME = Duration.ofSeconds(30);

    @Autowired
    SmsDemoRunner runner;

    @Autowired
    SmsOutbox outbox;

    @Autowired
    Errand errand;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void everyMessageReachesAFinalStateAcrossTheMaxLifetime() throws Exception {
        // H2 numbers its sessions in the order they open; the pool keeps one session per connection.
        long newestAtStart = jdbc.queryForObject("SELECT MAX(SESSION_ID) FROM INFORMATION_SCHEMA.SESSIONS", Long.class);
        assertThat(runner.summary()).as("the run is still in progress").isNull();

        SmsDemoSummary summary = runner.awaitSummary();

        assertThat(summary.complete()).isTrue();
        // Past the max-lifetime, counted from the run's start, which is after the pool opened.
        assertThat(summary.elapsed()).isGreaterThan(MAX_LIFETIME.plusSeconds(1));
        // The pool replaced its connections while the tasks ran: none open at the start is open now.
        long oldestAtEnd = jdbc.queryForObject("SELECT MIN(SESSION_ID) FROM INFORMATION_SCHEMA.SESSIONS", Long.class);
        assertThat(oldestAtEnd).isGreaterThan(newestAtStart);

        List<SmsMessage> messages = outbox.messages(summary.batch());
        assertThat(messages).hasSize(140).allSatisfy(m -> assertThat(m.status())
                .isIn(SmsOutbox.SENT, SmsOutbox.FAILED));
        // Without random failures exactly the unknown numbers fail, after all their attempts.
        assertThat(messages)
                .filteredOn(m -> m.recipient().endsWith("00"))
                .hasSize(15)
                .allSatisfy(m -> {
                    assertThat(m.status()).isEqualTo(SmsOutbox.FAILED);
                    assertThat(m.attempts()).isEqualTo(4);
                    assertThat(m.lastError()).isEqualTo("unknown subscriber " + m.recipient());
                });
        assertThat(messages).filteredOn(m -> !m.recipient().endsWith("00")).allSatisfy(m -> assertThat(m.status())
                .isEqualTo(SmsOutbox.SENT));
        assertThat(summary.sent()).isEqualTo(125);
        assertThat(summary.failed()).isEqualTo(15);
        assertThat(errand.admin()
                        .count(TaskQuery.builder().state(TaskState.PENDING).build()))
                .isZero();
        assertThat(errand.admin()
                        .count(TaskQuery.builder().state(TaskState.RUNNING).build()))
                .isZero();
        assertThat(errand.admin()
                        .count(TaskQuery.builder()
                                .state(TaskState.FAILED)
                                .kind(SmsSender.KIND_NAME)
                                .build()))
                .isEqualTo(15);
        // Receipts wait for their report, not for a worker: only unreported ones expire.
        assertThat(outbox.receiptCounts(summary.batch()).getOrDefault(ReceiptRecorder.DELIVERED, 0L))
                .isGreaterThan(80);
    }
}
