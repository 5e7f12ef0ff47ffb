package dev.errand.examples.sms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.admin.TaskQuery;
import dev.errand.task.TaskState;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * The demo starts on an embedded H2 file database, as it does by default, and completes its tasks: every
 * message is sent or failed, failed ones used all their attempts and carry their error, the numbers the
 * gateway does not know failed, and Actuator answers, with health 200 UP while the run is in progress.
 * The first gateway send is held until the test has had a health answer, so that the run cannot end before
 * it, however slow the machine.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "sms.h2-file=./target/sms-demo-test/${random.uuid}",
            "sms.messages=30",
            // A run of about 10 s: on a busy machine the first health answer took over 10 s (client, Tomcat's first
            // request) while a run at 100 ms per message lasted 6 to 10 s, and no check landed inside the run.
            "sms.send-time=250ms",
            "sms.retry-delay=50ms",
            "sms.retry-max-delay=200ms",
            "sms.exit-when-done=false"
        })
class SmsDemoApplicationTest {

    @Autowired
    SmsDemoRunner runner;

    @Autowired
    SmsOutbox outbox;

    @Autowired
    Errand errand;

    @Autowired
    MeterRegistry registry;

    @Autowired
    HeldGateway gateway;

    @LocalServerPort
    int port;

    /** The demo's gateway, with its first send held until {@link #releaseFirstSend()}. */
    static final class HeldGateway extends FlakySmsGateway {

        private final CountDownLatch release = new CountDownLatch(1);
        private final AtomicBoolean first = new AtomicBoolean(true);

        HeldGateway(SmsDemoProperties properties) {
            super(properties);
        }

        @Override
        public void send(String recipient, String body) throws InterruptedException {
            if (first.getAndSet(false) && !release.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never released the first send");
            }
            super.send(recipient, body);
        }

        void releaseFirstSend() {
            release.countDown();
        }
    }

    @TestConfiguration
    static class HeldGatewayConfiguration {
        @Bean
        @Primary
        HeldGateway heldGateway(SmsDemoProperties properties) {
            return new HeldGateway(properties);
        }
    }

    @Test
    void runsOnH2AndEveryMessageReachesAFinalState() throws Exception {
        // The run started when the application was ready, on its own thread: the application answers while
        // it is in progress. Ask for health until the run has ended; a check counts only if the run had not
        // ended before the answer came. The first send is held until the first answer, so that one counts.
        HttpClient http = HttpClient.newHttpClient();
        List<Integer> statusesDuringRun = new ArrayList<>();
        List<String> bodiesDuringRun = new ArrayList<>();
        await().atMost(Duration.ofSeconds(60))
                .pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    HttpResponse<String> health = get(http, "/actuator/health");
                    if (runner.summary() == null) {
                        statusesDuringRun.add(health.statusCode());
                        bodiesDuringRun.add(health.body());
                    }
                    gateway.releaseFirstSend();
                    return runner.summary() != null;
                });
        assertThat(statusesDuringRun).isNotEmpty().containsOnly(200);
        assertThat(bodiesDuringRun).allSatisfy(body -> assertThat(body)
                .startsWith("{\"components\"")
                .contains("\"errand\"")
                .endsWith("\"status\":\"UP\"}"));

        SmsDemoSummary summary = runner.awaitSummary();
        assertThat(summary.complete()).isTrue();
        assertThat(errand.dialectName()).isEqualTo("h2");

        List<SmsMessage> messages = outbox.messages(summary.batch());
        assertThat(messages).hasSize(30);
        assertThat(messages).allSatisfy(m -> assertThat(m.status()).isIn(SmsOutbox.SENT, SmsOutbox.FAILED));
        assertThat(summary.sent() + summary.failed()).isEqualTo(30);

        // Numbers ending in 00 are unknown to the gateway: they fail on every attempt.
        List<SmsMessage> unknown =
                messages.stream().filter(m -> m.recipient().endsWith("00")).toList();
        assertThat(unknown).hasSize(3).allSatisfy(m -> {
            assertThat(m.status()).isEqualTo(SmsOutbox.FAILED);
            assertThat(m.attempts()).isEqualTo(4);
            assertThat(m.lastError()).startsWith("unknown subscriber");
        });
        assertThat(messages).filteredOn(m -> m.status().equals(SmsOutbox.SENT)).allSatisfy(m -> assertThat(m.attempts())
                .isBetween(1, 4));
        assertThat(messages)
                .filteredOn(m -> m.status().equals(SmsOutbox.FAILED))
                .allSatisfy(m -> {
                    assertThat(m.attempts()).isEqualTo(4);
                    // The failure callback records the gateway's own words: no exception class, no stack trace.
                    assertThat(m.lastError())
                            .isIn(
                                    FlakySmsGateway.TRANSIENT_ERRORS.get(0),
                                    FlakySmsGateway.TRANSIENT_ERRORS.get(1),
                                    FlakySmsGateway.TRANSIENT_ERRORS.get(2),
                                    "unknown subscriber " + m.recipient());
                });

        // Errand's side agrees: no task left to run, one failed task per failed message.
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
                .isEqualTo(summary.failed());

        // Every sent message has its receipt: delivered when the report came, unconfirmed when its task expired.
        assertThat(outbox.awaitingReceipt(summary.batch())).isZero();
        Map<String, Long> receipts = outbox.receiptCounts(summary.batch());
        long delivered = receipts.getOrDefault(ReceiptRecorder.DELIVERED, 0L);
        long unconfirmed = receipts.getOrDefault(ReceiptRecorder.UNCONFIRMED, 0L);
        assertThat(delivered + unconfirmed).isEqualTo(summary.sent());
        assertThat(delivered).as("most reports arrive").isGreaterThan(0);
        assertThat(errand.admin()
                        .count(TaskQuery.builder()
                                .state(TaskState.FAILED)
                                .kind(ReceiptRecorder.KIND_NAME)
                                .build()))
                .isEqualTo(unconfirmed);
        assertThat(errand.admin()
                        .count(TaskQuery.builder().state(TaskState.WAITING).build()))
                .isZero();
        assertThat(registry.get("errand.tasks.retried")
                        .tags("kind", "send-sms")
                        .counter()
                        .count())
                .isGreaterThanOrEqualTo(9);

        HttpResponse<String> health = get(http, "/actuator/health");
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).contains("\"errand\"", "\"failedTasks\"");
        // Prometheus scrapes Errand's meters: counters by kind and queue, the queue gauges.
        HttpResponse<String> prometheus = get(http, "/actuator/prometheus");
        assertThat(prometheus.statusCode()).isEqualTo(200);
        assertThat(prometheus.body())
                .contains(
                        "errand_tasks_enqueued_total{kind=\"send-sms\",queue=\"default\"} 30.0",
                        "errand_tasks_succeeded_total{kind=\"send-sms\",queue=\"default\"} " + summary.sent() + ".0",
                        "errand_tasks_failed_total{kind=\"send-sms\",queue=\"default\"} " + summary.failed() + ".0",
                        "errand_tasks_retried_total{kind=\"send-sms\",queue=\"default\"}",
                        "errand_tasks_execution_seconds_count{kind=\"send-sms\"",
                        "errand_queue_depth{");
        HttpResponse<String> endpoint = get(http, "/actuator/errand");
        assertThat(endpoint.statusCode()).isEqualTo(200);
        assertThat(endpoint.body())
                .contains("\"send-sms\"", "\"" + errand.settings().nodeId() + "\"");

        // One failed message's task and its four attempts, as JSON.
        long failedTask = errand.admin()
                .list(TaskQuery.builder()
                        .state(TaskState.FAILED)
                        .kind(SmsSender.KIND_NAME)
                        .limit(1)
                        .build())
                .items()
                .get(0)
                .id();
        HttpResponse<String> attempts = get(http, "/actuator/errand/" + failedTask);
        assertThat(attempts.statusCode()).isEqualTo(200);
        assertThat(attempts.body())
                .contains("\"attempts\"", "\"outcome\":\"RETRIED\"", "\"outcome\":\"FAILED\"", "GatewayException");
    }

    private HttpResponse<String> get(HttpClient http, String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
