package dev.errand.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.Errand;
import dev.errand.flow.RateLimit;
import dev.errand.spring.ErrandConfigurationException;
import dev.errand.spring.ErrandTask;
import dev.errand.spring.ErrandTasks;
import dev.errand.spring.testing.PostgresTables;
import dev.errand.task.TaskContext;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskHandler;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Flow limits declared in Spring: {@link ErrandTask} attributes, {@code errand.flow.kinds.<kind>.*} over them,
 * {@code errand.queues.<name>.concurrency-limit}, and the start-up errors of bad values and unknown kinds.
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
                "set one of concurrency-limit, key-concurrency-limit and rate-limit",
                "errand.flow.kinds.partner-call.concurrency-limit=2",
                "errand.flow.kinds.partner-call.key-concurrency-limit=1");
        failsWith(
                "errand.queues.default.concurrency-limit must be between 1 and 10000, got 0",
                "errand.queues.default.concurrency-limit=0");
        runner.withBean("halfRated", HalfRated.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("ratePeriod needs rateLimit");
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
