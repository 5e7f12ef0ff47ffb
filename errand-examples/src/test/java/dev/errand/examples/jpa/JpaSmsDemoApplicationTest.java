package dev.errand.examples.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.jpa.EntityQueues;
import dev.errand.jpa.state.QueueStatus;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The JPA SMS demo runs on an embedded H2 file database, as it does by default, and every message of its
 * batch reaches a final state: sent or failed for good after every attempt, with the gateway's error, and in
 * either case the CRM told through the entity's second queue; unknown numbers always fail; Errand's task
 * table is not used.
 */
@SpringBootTest(
        classes = JpaSmsDemoApplication.class,
        properties = {
            "spring.config.name=jpa-sms-demo",
            "jpa-sms.h2-file=./target/jpa-sms-demo-test/${random.uuid}",
            "jpa-sms.messages=30",
            "jpa-sms.send-time=10ms",
            "jpa-sms.retry-delay=50ms",
            "jpa-sms.exit-when-done=false"
        })
class JpaSmsDemoApplicationTest {

    @Autowired
    JpaSmsDemoRunner runner;

    @Autowired
    EntityQueues queues;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void runsOnH2AndEveryMessageReachesAFinalState() throws Exception {
        JpaSmsDemoSummary summary = runner.awaitSummary();

        assertThat(summary.complete()).isTrue();
        List<SmsMessage> messages = summary.messages();
        assertThat(messages).hasSize(30);
        assertThat(messages)
                .allSatisfy(m -> assertThat(m.sendState().status()).isIn(QueueStatus.DONE, QueueStatus.FAILED));
        assertThat(summary.sent(QueueStatus.DONE)).allSatisfy(m -> {
            assertThat(m.sendState().attempts()).isBetween(1, 3);
            assertThat(m.crmState().status()).as("sent, then the CRM was told").isEqualTo(QueueStatus.DONE);
        });
        assertThat(summary.sent(QueueStatus.FAILED)).allSatisfy(m -> {
            assertThat(m.sendState().attempts()).isEqualTo(3);
            assertThat(m.sendState().lastError()).startsWith(FlakyGateway.GatewayException.class.getName());
            assertThat(m.crmState().status())
                    .as("failed, then the CRM was told")
                    .isEqualTo(QueueStatus.DONE);
        });
        assertThat(messages)
                .filteredOn(m -> m.toAddress().endsWith("0000"))
                .hasSize(3)
                .allSatisfy(m -> assertThat(m.sendState().status()).isEqualTo(QueueStatus.FAILED));
        assertThat(summary.send().get(QueueStatus.DONE))
                .isEqualTo(summary.sent(QueueStatus.DONE).size());
        assertThat(queues.queue(JpaSmsDemoApplication.SEND_QUEUE, SmsMessage.class)
                        .stats()
                        .failed())
                .isEqualTo(summary.sent(QueueStatus.FAILED).size());
        assertThat(jdbc.queryForObject(
                        "SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME LIKE 'ERRAND%'", Long.class))
                .as("errand.enabled=false: no task table")
                .isZero();
    }
}
