package dev.errand.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.flow.FlowLimit;
import dev.errand.flow.RateLimit;
import dev.errand.spring.ErrandClient;
import dev.errand.spring.ErrandConfigurationException;
import dev.errand.spring.ErrandTask;
import dev.errand.spring.ErrandTasks;
import dev.errand.spring.testing.PostgresTables;
import dev.errand.task.Task;
import dev.errand.task.TaskContext;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskHandler;
import dev.errand.task.TaskState;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Flow limits declared in Spring: {@link ErrandTask} attributes, {@code errand.flow.kinds.<kind>.*} over them,
 * {@code errand.queues.<name>.concurrency-limit} and {@code rate-limit} with {@code rate-period}, and the start-up
 * errors of bad values and unknown kinds.
 */
class StarterFlowLimitsTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class,
                    DataSourceTransactionManagerAutoConfiguration.class,
                    ErrandAutoConfiguration.class))
            .withInitializer(new PostgresTables())
            .withPropertyValues("errand.processing-enabled=false");

    /** A payload with a customer. */
    record Call(String customerId) {}

    @ErrandTask(value = "partner-call", rateLimit = 5, ratePeriod = "1m", limitKeyFrom = "customerId")
    static class PartnerCall implements TaskHandler<Call> {
        @Override
        public void handle(Call payload, TaskContext context) {}
    }

    @ErrandTask(value = "half-rated", ratePeriod = "1m")
    static class HalfRated implements TaskHandler<Call> {
        @Override
        public void handle(Call payload, TaskContext context) {}
    }

    /** Counts its runs by customer. */
    @ErrandTask(value = "key-rated", rateLimitPerKey = 2, ratePeriod = "1h", limitKeyFrom = "customerId")
    static class KeyRated implements TaskHandler<Call> {
        final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

        @Override
        public void handle(Call payload, TaskContext context) {
            runs.computeIfAbsent(payload.customerId(), key -> new AtomicInteger())
                    .incrementAndGet();
        }
    }

    @ErrandTask(value = "key-rated-without-period", rateLimitPerKey = 2)
    static class KeyRatedWithoutPeriod implements TaskHandler<Call> {
        @Override
        public void handle(Call payload, TaskContext context) {}
    }

    @ErrandTask(value = "double-rated", rateLimit = 10, rateLimitPerKey = 2, ratePeriod = "1m")
    static class DoubleRated implements TaskHandler<Call> {
        @Override
        public void handle(Call payload, TaskContext context) {}
    }

    /** Counts its runs. */
    @ErrandTask("queue-rated")
    static class QueueRated implements TaskHandler<Call> {
        final AtomicInteger runs = new AtomicInteger();

        @Override
        public void handle(Call payload, TaskContext context) {
            runs.incrementAndGet();
        }
    }

    private static TaskDefinition<?> definition(AssertableApplicationContext context, String kind) {
        return context.getBean(ErrandTasks.class).find(kind).orElseThrow().definition();
    }

    @Test
    void theAnnotationDeclaresARateLimitAndWhereTheKeyIsRead() {
        runner.withBean("partnerCall", PartnerCall.class).run(context -> {
            assertThat(context).hasNotFailed();
            TaskDefinition<?> call = definition(context, "partner-call");
            assertThat(call.rateLimit()).isEqualTo(new RateLimit(5, Duration.ofMinutes(1)));
            assertThat(call.limitKeyFrom()).isEqualTo("/customerId");
            assertThat(call.concurrencyLimit()).isNull();
        });
    }

    @Test
    void propertiesOverrideTheAnnotationsFlowOptions() {
        runner.withBean("partnerCall", PartnerCall.class)
                .withPropertyValues(
                        "errand.flow.kinds.partner-call.key-concurrency-limit=2",
                        "errand.flow.kinds.partner-call.limit-key-from=/customer/id")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    TaskDefinition<?> call = definition(context, "partner-call");
                    assertThat(call.concurrencyLimitPerKey()).isEqualTo(2);
                    assertThat(call.rateLimit())
                            .as("replaced by the property's limit")
                            .isNull();
                    assertThat(call.limitKeyFrom()).isEqualTo("/customer/id");
                });
        runner.withBean("partnerCall", PartnerCall.class)
                .withPropertyValues(
                        "errand.flow.kinds.partner-call.rate-limit=100",
                        "errand.flow.kinds.partner-call.rate-period=10s")
                .run(context -> assertThat(definition(context, "partner-call").rateLimit())
                        .isEqualTo(new RateLimit(100, Duration.ofSeconds(10))));
    }

    @Test
    void theAnnotationsPerKeyRateLimitHoldsEachKeyToItsStartsPerPeriod() {
        runner.withBean("keyRated", KeyRated.class)
                .withPropertyValues("errand.processing-enabled=true", "errand.poll-interval=100ms")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    TaskDefinition<?> definition = definition(context, "key-rated");
                    assertThat(definition.rateLimitPerKey()).isEqualTo(new RateLimit(2, Duration.ofHours(1)));
                    assertThat(definition.rateLimit()).isNull();
                    assertThat(definition.limitKeyFrom()).isEqualTo("/customerId");

                    ErrandClient client = context.getBean(ErrandClient.class);
                    List<Long> ofA = List.of(
                            client.enqueue("key-rated", new Call("a")).id(),
                            client.enqueue("key-rated", new Call("a")).id(),
                            client.enqueue("key-rated", new Call("a")).id());
                    client.enqueue("key-rated", new Call("b"));
                    Map<String, AtomicInteger> runs = context.getBean(KeyRated.class).runs;
                    await().atMost(Duration.ofSeconds(20))
                            .until(() -> runs.containsKey("a")
                                    && runs.get("a").get() == 2
                                    && runs.containsKey("b")
                                    && runs.get("b").get() == 1);

                    Errand errand = context.getBean(Errand.class);
                    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                                    errand.flow().limits())
                            .singleElement()
                            .satisfies(limit -> {
                                assertThat(limit.kind()).isEqualTo("key-rated");
                                assertThat(limit.ratePerKey())
                                        .isEqualTo(new FlowLimit.Rate(new RateLimit(2, Duration.ofHours(1)), null));
                                assertThat(limit.rate().inForce()).isNull();
                                assertThat(limit.slotsInUse())
                                        .as("starts in the window, over all keys")
                                        .isEqualTo(3);
                                assertThat(limit.waiting())
                                        .as("the third task of key a")
                                        .isEqualTo(1);
                            }));
                    await().during(Duration.ofMillis(500))
                            .atMost(Duration.ofSeconds(2))
                            .until(() ->
                                    runs.get("a").get() == 2 && runs.get("b").get() == 1);
                    List<TaskState> statesOfA = ofA.stream()
                            .map(id -> errand.admin().find(id).map(Task::state).orElse(null))
                            .toList();
                    assertThat(statesOfA)
                            .as("tasks of key a: two done (deleted), one pending")
                            .filteredOn(state -> state == TaskState.PENDING)
                            .hasSize(1);
                    assertThat(statesOfA).filteredOn(state -> state == null).hasSize(2);
                });
    }

    @Test
    void aPerKeyRateLimitPropertyOverridesTheAnnotation() {
        runner.withBean("partnerCall", PartnerCall.class)
                .withPropertyValues(
                        "errand.flow.kinds.partner-call.key-rate-limit=3",
                        "errand.flow.kinds.partner-call.rate-period=10s")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    TaskDefinition<?> call = definition(context, "partner-call");
                    assertThat(call.rateLimitPerKey()).isEqualTo(new RateLimit(3, Duration.ofSeconds(10)));
                    assertThat(call.rateLimit())
                            .as("replaced by the property's limit")
                            .isNull();
                    assertThat(call.limitKeyFrom()).isEqualTo("/customerId");
                });
        runner.withBean("keyRated", KeyRated.class)
                .withPropertyValues("errand.flow.kinds.key-rated.key-concurrency-limit=1")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    TaskDefinition<?> keyRated = definition(context, "key-rated");
                    assertThat(keyRated.concurrencyLimitPerKey()).isEqualTo(1);
                    assertThat(keyRated.rateLimitPerKey())
                            .as("replaced by the property's limit")
                            .isNull();
                });
    }

    @Test
    void aQueuesConcurrencyLimitPropertyReachesTheNode() {
        runner.withPropertyValues(
                        "errand.queues.default.concurrency=2",
                        "errand.queues.partner.concurrency=4",
                        "errand.queues.partner.concurrency-limit=3")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(Errand.class).settings().queueConcurrencyLimits())
                            .isEqualTo(Map.of("partner", 3));
                });
    }

    @Test
    void aQueuesRateLimitPropertyHoldsTheQueueToItsStartsPerPeriod() {
        runner.withBean("queueRated", QueueRated.class)
                .withPropertyValues(
                        "errand.processing-enabled=true",
                        "errand.poll-interval=100ms",
                        "errand.queues.partner.rate-limit=1",
                        "errand.queues.partner.rate-period=1h")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Errand errand = context.getBean(Errand.class);
                    assertThat(errand.settings().queueRateLimits())
                            .isEqualTo(Map.of("partner", new RateLimit(1, Duration.ofHours(1))));

                    ErrandClient client = context.getBean(ErrandClient.class);
                    List<Long> ids = List.of(
                            enqueueInto(client, "partner"),
                            enqueueInto(client, "partner"),
                            enqueueInto(client, "partner"));
                    AtomicInteger runs = context.getBean(QueueRated.class).runs;
                    await().atMost(Duration.ofSeconds(20)).until(() -> runs.get() == 1);

                    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                                    errand.flow().queueLimits())
                            .singleElement()
                            .satisfies(limit -> {
                                assertThat(limit.queue()).isEqualTo("partner");
                                assertThat(limit.rate().inForce()).isEqualTo(new RateLimit(1, Duration.ofHours(1)));
                                assertThat(limit.concurrency().inForce()).isNull();
                                assertThat(limit.startsInWindow()).isEqualTo(1);
                                assertThat(limit.waiting())
                                        .as("the two tasks past the limit")
                                        .isEqualTo(2);
                            }));
                    await().during(Duration.ofMillis(500))
                            .atMost(Duration.ofSeconds(2))
                            .until(() -> runs.get() == 1);
                    List<TaskState> states = ids.stream()
                            .map(id -> errand.admin().find(id).map(Task::state).orElse(null))
                            .toList();
                    assertThat(states)
                            .as("one task done (deleted), two pending")
                            .filteredOn(state -> state == TaskState.PENDING)
                            .hasSize(2);
                    assertThat(states).filteredOn(state -> state == null).hasSize(1);
                });
    }

    @Test
    void aQueuesRateLimitStandsBesideItsConcurrencyLimit() {
        runner.withPropertyValues(
                        "errand.queues.partner.concurrency-limit=3",
                        "errand.queues.partner.rate-limit=100",
                        "errand.queues.partner.rate-period=1m")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Errand errand = context.getBean(Errand.class);
                    assertThat(errand.settings().queueConcurrencyLimits()).isEqualTo(Map.of("partner", 3));
                    assertThat(errand.settings().queueRateLimits())
                            .isEqualTo(Map.of("partner", new RateLimit(100, Duration.ofMinutes(1))));
                });
    }

    @Test
    void aBadQueueRateLimitStopsStartUpNamingTheProperty() {
        failsWith(
                "errand.queues.partner.rate-limit must be between 1 and 10000, got 0",
                "errand.queues.partner.rate-limit=0",
                "errand.queues.partner.rate-period=1h");
        failsWith(
                "errand.queues.partner.rate-limit must be between 1 and 10000, got -1",
                "errand.queues.partner.rate-limit=-1",
                "errand.queues.partner.rate-period=1h");
        failsWith(
                "errand.queues.partner.rate-limit must be between 1 and 10000, got 10001",
                "errand.queues.partner.rate-limit=10001",
                "errand.queues.partner.rate-period=1h");
        failsWith(
                "errand.queues.partner.rate-limit and errand.queues.partner.rate-period go together",
                "errand.queues.partner.rate-limit=10");
        failsWith(
                "errand.queues.partner.rate-period needs errand.queues.partner.rate-limit",
                "errand.queues.partner.rate-period=1m");
        failsWith(
                "errand.queues.partner.rate-period: The period of a rate limit must be between 1 ms and 24 h",
                "errand.queues.partner.rate-limit=10",
                "errand.queues.partner.rate-period=0s");
        failsWith(
                "errand.queues.partner.rate-period: The period of a rate limit must be between 1 ms and 24 h",
                "errand.queues.partner.rate-limit=10",
                "errand.queues.partner.rate-period=25h");
    }

    private static long enqueueInto(ErrandClient client, String queue) {
        return client.enqueue(TaskRequest.builder("queue-rated", new Call("c"))
                        .queue(queue)
                        .build())
                .id();
    }

    @Test
    void anUnknownKindOrABadValueStopsStartUpNamingTheProperty() {
        runner.withBean("partnerCall", PartnerCall.class)
                .withPropertyValues("errand.flow.kinds.no-such-kind.concurrency-limit=2")
                .run(context -> {
                    assertThat(context).hasFailed();
                    ErrandConfigurationException failure =
                            findCause(context.getStartupFailure(), ErrandConfigurationException.class);
                    assertThat(failure.description())
                            .contains("errand.flow.kinds.no-such-kind")
                            .contains("partner-call");
                });
        failsWith(
                "errand.flow.kinds.partner-call.concurrency-limit must be between 1 and 10000, got 0",
                "errand.flow.kinds.partner-call.concurrency-limit=0");
        failsWith(
                "errand.flow.kinds.partner-call.key-concurrency-limit must be between 1 and 10000, got -1",
                "errand.flow.kinds.partner-call.key-concurrency-limit=-1");
        failsWith(
                "errand.flow.kinds.partner-call.rate-limit and errand.flow.kinds.partner-call.rate-period go together",
                "errand.flow.kinds.partner-call.rate-limit=10");
        failsWith(
                "between 1 ms and 24 h",
                "errand.flow.kinds.partner-call.rate-limit=10",
                "errand.flow.kinds.partner-call.rate-period=0s");
        failsWith(
                "set one of concurrency-limit, key-concurrency-limit, rate-limit and key-rate-limit",
                "errand.flow.kinds.partner-call.concurrency-limit=2",
                "errand.flow.kinds.partner-call.key-concurrency-limit=1");
        failsWith(
                "errand.queues.default.concurrency-limit must be between 1 and 10000, got 0",
                "errand.queues.default.concurrency-limit=0");
        runner.withBean("halfRated", HalfRated.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure())
                    .rootCause()
                    .hasMessageContaining("ratePeriod needs rateLimit or rateLimitPerKey, for example rateLimit = 100");
        });
    }

    @Test
    void aBadPerKeyRateLimitStopsStartUpNamingThePropertyOrAttribute() {
        failsWith(
                "errand.flow.kinds.partner-call.key-rate-limit must be between 1 and 10000, got 0",
                "errand.flow.kinds.partner-call.key-rate-limit=0",
                "errand.flow.kinds.partner-call.rate-period=1m");
        failsWith(
                "errand.flow.kinds.partner-call.key-rate-limit must be between 1 and 10000, got 10001",
                "errand.flow.kinds.partner-call.key-rate-limit=10001",
                "errand.flow.kinds.partner-call.rate-period=1m");
        failsWith(
                "errand.flow.kinds.partner-call.key-rate-limit and errand.flow.kinds.partner-call.rate-period go"
                        + " together",
                "errand.flow.kinds.partner-call.key-rate-limit=10");
        failsWith(
                "errand.flow.kinds.partner-call.rate-period needs errand.flow.kinds.partner-call.rate-limit or"
                        + " errand.flow.kinds.partner-call.key-rate-limit",
                "errand.flow.kinds.partner-call.rate-period=1m");
        failsWith(
                "errand.flow.kinds.partner-call.*: set one of concurrency-limit, key-concurrency-limit, rate-limit and"
                        + " key-rate-limit",
                "errand.flow.kinds.partner-call.rate-limit=10",
                "errand.flow.kinds.partner-call.key-rate-limit=2",
                "errand.flow.kinds.partner-call.rate-period=1m");
        runner.withBean("keyRatedWithoutPeriod", KeyRatedWithoutPeriod.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure())
                    .rootCause()
                    .hasMessageContaining("Task kind 'key-rated-without-period'")
                    .hasMessageContaining("ratePeriod is required for this rate limit");
        });
        runner.withBean("doubleRated", DoubleRated.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure())
                    .rootCause()
                    .hasMessageContaining("Task kind 'double-rated'")
                    .hasMessageContaining("rateLimit and rateLimitPerKey; a kind has one of them");
        });
    }

    private void failsWith(String message, String... properties) {
        runner.withBean("partnerCall", PartnerCall.class)
                .withPropertyValues(properties)
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause().hasMessageContaining(message);
                });
    }

    private static <T extends Throwable> T findCause(Throwable failure, Class<T> type) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return type.cast(cause);
            }
        }
        throw new AssertionError("no " + type.getSimpleName() + " in " + failure);
    }
}
