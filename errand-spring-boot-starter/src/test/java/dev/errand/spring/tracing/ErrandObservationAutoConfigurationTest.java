package dev.errand.spring.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.spi.ClaimedTask;
import dev.errand.spi.TaskTracing;
import dev.errand.spi.TraceContext;
import dev.errand.spring.autoconfigure.ErrandObservationAutoConfiguration;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * When the starter observes tasks: with an {@link ObservationRegistry} bean, unless turned off or replaced; and
 * what it stores when no tracing handler is registered (nothing).
 */
class ErrandObservationAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ErrandObservationAutoConfiguration.class));

    @Test
    void anObservationRegistryTurnsItOn() {
        runner.withBean(ObservationRegistry.class, ObservationRegistry::create)
                .run(context -> assertThat(context).hasSingleBean(TaskObservations.class));
    }

    @Test
    void withoutARegistryOrWhenTurnedOffThereIsNone() {
        runner.run(context -> assertThat(context).doesNotHaveBean(TaskTracing.class));
        runner.withBean(ObservationRegistry.class, ObservationRegistry::create)
                .withPropertyValues("errand.tracing.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(TaskTracing.class));
    }

    @Test
    void theApplicationsOwnTracingWins() {
        runner.withBean(ObservationRegistry.class, ObservationRegistry::create)
                .withBean("ownTracing", TaskTracing.class, () -> TaskTracing.NONE)
                .run(context -> {
                    assertThat(context).doesNotHaveBean(TaskObservations.class);
                    assertThat(context.getBean(TaskTracing.class)).isSameAs(TaskTracing.NONE);
                });
    }

    @Test
    void aClaimAndACompletionBatchCarryTheirOutcomeAndTaskCount() {
        ObservationRegistry registry = ObservationRegistry.create();
        List<Observation.Context> stopped = new ArrayList<>();
        registry.observationConfig().observationHandler(new ObservationHandler<>() {
            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }

            @Override
            public void onStop(Observation.Context context) {
                stopped.add(context);
            }
        });
        TaskObservations observations = new TaskObservations(registry);

        try (TaskTracing.BatchSpan claim = observations.claimStarted("mail")) {
            claim.tasks(3);
        }
        try (TaskTracing.BatchSpan empty = observations.claimStarted("mail")) {
            empty.tasks(0);
        }
        IllegalStateException down = new IllegalStateException("database is down");
        try (TaskTracing.BatchSpan failed = observations.completionStarted(7)) {
            failed.failed(down);
        }

        assertThat(stopped)
                .extracting(Observation.Context::getName)
                .containsExactly(TaskObservations.CLAIM, TaskObservations.CLAIM, TaskObservations.COMPLETE);
        assertThat(value(stopped.get(0), "errand.queue")).isEqualTo("mail");
        assertThat(value(stopped.get(0), "errand.outcome")).isEqualTo("claimed");
        assertThat(value(stopped.get(0), "errand.tasks")).isEqualTo("3");
        assertThat(value(stopped.get(1), "errand.outcome")).isEqualTo("empty");
        assertThat(value(stopped.get(2), "errand.outcome")).isEqualTo("failed");
        assertThat(stopped.get(2).getError()).isSameAs(down);
        assertThat(new TaskObservations(ObservationRegistry.NOOP).claimStarted("mail"))
                .isSameAs(TaskTracing.BatchSpan.NONE);
    }

    private static String value(Observation.Context context, String key) {
        return context.getAllKeyValues().stream()
                .filter(keyValue -> keyValue.getKey().equals(key))
                .map(io.micrometer.common.KeyValue::getValue)
                .findFirst()
                .orElse(null);
    }

    @Test
    void aRegistryWithoutATracingHandlerStoresNothingAndTheAttemptStillOpensAndCloses() {
        TaskObservations observations = new TaskObservations(ObservationRegistry.create());
        assertThat(observations.capture("k", "default")).isEqualTo(TraceContext.NONE);
        TaskTracing.AttemptSpan span = observations.attemptStarted(new ClaimedTask(1, "k", "default", null, 1, 3, 9L));
        span.close();
        assertThat(new TaskObservations(ObservationRegistry.NOOP).capture("k", "default"))
                .isEqualTo(TraceContext.NONE);
        assertThatThrownBy(() -> new TaskObservations(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ObservationRegistry.NOOP");
    }
}
