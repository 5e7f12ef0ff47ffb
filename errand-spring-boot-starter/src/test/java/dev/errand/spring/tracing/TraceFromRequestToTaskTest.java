package dev.errand.spring.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.spring.ErrandClient;
import dev.errand.spring.testing.PostgresTables;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskKind;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * One trace from an HTTP request to the task it enqueues and on to that task's continuation, with Micrometer
 * Tracing over OpenTelemetry and the SDK's in-memory exporter, on PostgreSQL: the spans link parent to child
 * across the task table, the attempt's span carries the task's kind, queue, id, attempt and outcome, log lines
 * written in the continuation carry the trace id, and the run observation is a timer too.
 */
@SpringBootTest(
        classes = TraceFromRequestToTaskTest.App.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "errand.poll-interval=100ms",
            "errand.shutdown-timeout=5s",
            "management.tracing.sampling.probability=1.0"
        })
@ContextConfiguration(initializers = PostgresTables.class)
@DirtiesContext
class TraceFromRequestToTaskTest {

    static final TaskKind<Integer> SHIP = TaskKind.of("trace-ship", Integer.class);
    static final TaskKind<Integer> NOTIFY = TaskKind.of("trace-notify", Integer.class);
    static final TaskKind<Integer> REFUSE = TaskKind.of("trace-refuse", Integer.class);
    static final TaskKind<Integer> TALLY = TaskKind.of("trace-tally", Integer.class);

    /** What the continuation saw in its log context, by key. */
    static final Map<String, String> NOTIFY_MDC = new ConcurrentHashMap<>();

    @SpringBootConfiguration
    @EnableAutoConfiguration(
            excludeName = {
                "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration",
                "org.springframework.boot.data.jpa.autoconfigure.DataJpaRepositoriesAutoConfiguration"
            })
    static class App {
        /** Spring Boot hands every exporter bean to its span processor; the test flushes it before reading. */
        @Bean
        InMemorySpanExporter spans() {
            return InMemorySpanExporter.create();
        }

        @Bean
        TaskDefinition<Integer> ship() {
            return TaskDefinition.builder(SHIP, (order, context) -> context.continueWith(NOTIFY, order))
                    .build();
        }

        @Bean
        TaskDefinition<Integer> notifyCustomer() {
            return TaskDefinition.builder(NOTIFY, (order, context) -> {
                        NOTIFY_MDC.put("traceId", String.valueOf(MDC.get("traceId")));
                        NOTIFY_MDC.put("errand.trace.id", String.valueOf(MDC.get("errand.trace.id")));
                        NOTIFY_MDC.put("errand.task.id", String.valueOf(MDC.get("errand.task.id")));
                    })
                    .mode(ExecutionMode.NON_TRANSACTIONAL)
                    .build();
        }

        @Bean
        TaskDefinition<Integer> refuse() {
            return TaskDefinition.builder(REFUSE, (order, context) -> {
                        throw new IllegalStateException("order " + order + " is refused");
                    })
                    .maxAttempts(2)
                    .retryPolicy(dev.errand.retry.RetryPolicy.fixed(Duration.ofMillis(50)))
                    .mode(ExecutionMode.NON_TRANSACTIONAL)
                    .build();
        }

        @Bean
        TaskDefinition<Integer> tally() {
            return TaskDefinition.builder(TALLY, (n, context) -> {})
                    .mode(ExecutionMode.NON_TRANSACTIONAL)
                    .build();
        }

        @Bean
        Orders orders(ErrandClient client) {
            return new Orders(client);
        }
    }

    /** The application's own endpoint: placing an order enqueues its shipping. */
    @RestController
    static class Orders {
        private final ErrandClient client;

        Orders(ErrandClient client) {
            this.client = client;
        }

        @PostMapping("/orders/{order}")
        String place(@PathVariable int order) {
            return Long.toString(client.enqueue(SHIP, order).id());
        }
    }

    @LocalServerPort
    int port;

    @Autowired
    InMemorySpanExporter exporter;

    @Autowired
    SdkTracerProvider tracerProvider;

    @Autowired
    MeterRegistry meters;

    @Autowired
    DataSource dataSource;

    @Autowired
    dev.errand.Errand errand;

    @Test
    void theRequestItsTaskAndTheTasksContinuationAreOneTrace() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/orders/42"))
                                .POST(HttpRequest.BodyPublishers.noBody())
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        long shipId = Long.parseLong(response.body());

        await().atMost(Duration.ofSeconds(20)).until(() -> {
            tracerProvider.forceFlush().join(5, TimeUnit.SECONDS);
            return runSpans().stream()
                            .filter(span ->
                                    List.of("trace-ship", "trace-notify").contains(attribute(span, "errand.kind")))
                            .count()
                    == 2;
        });

        SpanData server = exporter.getFinishedSpanItems().stream()
                .filter(span -> span.getKind() == SpanKind.SERVER)
                .findFirst()
                .orElseThrow();
        String trace = server.getTraceId();
        SpanData shipEnqueue = enqueueSpan("trace-ship");
        SpanData shipRun = runSpan("trace-ship");
        SpanData notifyEnqueue = enqueueSpan("trace-notify");
        SpanData notifyRun = runSpan("trace-notify");

        assertThat(List.of(shipEnqueue, shipRun, notifyEnqueue, notifyRun))
                .allSatisfy(span -> assertThat(span.getTraceId()).isEqualTo(trace));
        assertThat(shipEnqueue.getKind()).isEqualTo(SpanKind.PRODUCER);
        assertThat(shipEnqueue.getParentSpanId()).isEqualTo(server.getSpanId());
        assertThat(shipRun.getKind()).isEqualTo(SpanKind.CONSUMER);
        assertThat(shipRun.getParentSpanId()).isEqualTo(shipEnqueue.getSpanId());
        assertThat(notifyEnqueue.getParentSpanId()).isEqualTo(shipRun.getSpanId());
        assertThat(notifyRun.getParentSpanId()).isEqualTo(notifyEnqueue.getSpanId());

        assertThat(attribute(shipRun, "errand.kind")).isEqualTo("trace-ship");
        assertThat(attribute(shipRun, "errand.queue")).isEqualTo("default");
        assertThat(attribute(shipRun, "errand.task.id")).isEqualTo(Long.toString(shipId));
        assertThat(attribute(shipRun, "errand.attempt")).isEqualTo("1");
        assertThat(attribute(shipRun, "errand.outcome")).isEqualTo("succeeded");
        assertThat(attribute(notifyRun, "errand.outcome")).isEqualTo("succeeded");

        assertThat(NOTIFY_MDC)
                .containsEntry("traceId", trace)
                .containsEntry("errand.trace.id", trace)
                .containsKey("errand.task.id");

        assertThat(meters.get(TaskObservations.RUN)
                        .tag("errand.kind", "trace-ship")
                        .tag("errand.outcome", "succeeded")
                        .timer()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void theTraceContextIsStoredOnTheTaskRowAsW3cTraceparent() throws Exception {
        long id = errand.enqueue(dev.errand.enqueue.TaskRequest.builder(SHIP, 7)
                        .runAt(java.time.Instant.now().plus(Duration.ofDays(1)))
                        .build())
                .id();
        try (Connection c = dataSource.getConnection();
                PreparedStatement s = c.prepareStatement("SELECT trace_parent FROM "
                        + errand.settings().tablePrefix().taskTable() + " WHERE id = ?")) {
            s.setLong(1, id);
            try (ResultSet row = s.executeQuery()) {
                assertThat(row.next()).isTrue();
                // Enqueued outside a request: the enqueue span starts a trace of its own, stored all the same.
                assertThat(row.getString(1)).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}");
            }
        }
        errand.admin().delete(id);
    }

    @Test
    void eachAttemptOfAFailingTaskIsAChildOfTheEnqueueWithItsOutcome() {
        errand.enqueue(dev.errand.enqueue.TaskRequest.of(REFUSE, 9));
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            tracerProvider.forceFlush().join(5, TimeUnit.SECONDS);
            return runSpans().stream()
                            .filter(span -> "trace-refuse".equals(attribute(span, "errand.kind")))
                            .count()
                    == 2;
        });
        SpanData enqueue = enqueueSpan("trace-refuse");
        List<SpanData> attempts = runSpans().stream()
                .filter(span -> "trace-refuse".equals(attribute(span, "errand.kind")))
                .sorted(java.util.Comparator.comparing(span -> attribute(span, "errand.attempt")))
                .toList();
        assertThat(attempts)
                .allSatisfy(span -> assertThat(span.getParentSpanId()).isEqualTo(enqueue.getSpanId()));
        assertThat(attempts)
                .extracting(span -> attribute(span, "errand.outcome"))
                .containsExactly("retried", "failed");
    }

    @Test
    void claimsAndCompletionBatchesAreTimersAndSpansOfTheirOwn() {
        List<dev.errand.enqueue.TaskRequest> requests = new java.util.ArrayList<>();
        for (int i = 0; i < 5; i++) {
            requests.add(dev.errand.enqueue.TaskRequest.of(TALLY, i));
        }
        errand.enqueueAll(requests);
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            tracerProvider.forceFlush().join(5, TimeUnit.SECONDS);
            return completedByCompletionSpans() >= 5;
        });

        assertThat(meters.get(TaskObservations.CLAIM)
                        .tag("errand.queue", "default")
                        .tag("errand.outcome", "claimed")
                        .timer()
                        .count())
                .isPositive();
        assertThat(meters.get(TaskObservations.COMPLETE)
                        .tag("errand.outcome", "completed")
                        .timer()
                        .count())
                .isPositive();
        List<SpanData> claims = exporter.getFinishedSpanItems().stream()
                .filter(span -> span.getName().equals("errand claim default"))
                .toList();
        assertThat(claims).isNotEmpty().allSatisfy(span -> {
            assertThat(span.getParentSpanContext().isValid())
                    .as("a claim has no parent")
                    .isFalse();
            assertThat(attribute(span, "errand.outcome")).isIn("claimed", "empty");
            assertThat(attribute(span, "errand.tasks")).matches("\\d+");
        });
        assertThat(claims.stream()
                        .filter(span -> "claimed".equals(attribute(span, "errand.outcome")))
                        .mapToInt(span -> Integer.parseInt(attribute(span, "errand.tasks")))
                        .sum())
                .isGreaterThanOrEqualTo(5);
    }

    private int completedByCompletionSpans() {
        return exporter.getFinishedSpanItems().stream()
                .filter(span -> span.getName().equals("errand complete"))
                .filter(span -> "completed".equals(attribute(span, "errand.outcome")))
                .mapToInt(span -> Integer.parseInt(attribute(span, "errand.tasks")))
                .sum();
    }

    private List<SpanData> runSpans() {
        return exporter.getFinishedSpanItems().stream()
                .filter(span -> span.getKind() == SpanKind.CONSUMER)
                .toList();
    }

    private SpanData runSpan(String kind) {
        return runSpans().stream()
                .filter(span -> kind.equals(attribute(span, "errand.kind")))
                .findFirst()
                .orElseThrow();
    }

    private SpanData enqueueSpan(String kind) {
        return exporter.getFinishedSpanItems().stream()
                .filter(span -> span.getKind() == SpanKind.PRODUCER && kind.equals(attribute(span, "errand.kind")))
                .findFirst()
                .orElseThrow();
    }

    private static String attribute(SpanData span, String key) {
        return span.getAttributes().get(AttributeKey.stringKey(key));
    }
}
