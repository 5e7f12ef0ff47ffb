package dev.errand.spring.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.spi.ClaimedTask;
import dev.errand.spi.TaskTracing;
import dev.errand.spi.TraceContext;
import dev.errand.spring.autoconfigure.ErrandObservationAutoConfiguration;
import io.micrometer.observation.ObservationRegistry;
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
