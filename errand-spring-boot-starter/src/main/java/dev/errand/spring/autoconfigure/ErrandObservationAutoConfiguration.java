package dev.errand.spring.autoconfigure;

import dev.errand.spi.TaskTracing;
import dev.errand.spring.tracing.TaskObservations;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Observes enqueues and attempts with the application's {@link ObservationRegistry} when Micrometer's Observation
 * API is on the class path and such a registry exists (Spring Boot's actuator makes one), unless
 * {@code errand.tracing.enabled=false}: {@link TaskObservations} becomes the node's {@link TaskTracing} and one of
 * its task listeners. With Micrometer Tracing (OpenTelemetry or Brave) the request that enqueues a task, the task's
 * attempts and its continuations form one trace. Backs off when the application defines its own
 * {@code TaskTracing}.
 */
@AutoConfiguration(
        afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnBean(ObservationRegistry.class)
@ConditionalOnBooleanProperty(name = "errand.tracing.enabled", matchIfMissing = true)
public class ErrandObservationAutoConfiguration {

    /** Creates the auto-configuration; Spring calls it. */
    public ErrandObservationAutoConfiguration() {}

    /** Enqueue and run observations, and the trace context carried between them. */
    @Bean
    @ConditionalOnMissingBean(TaskTracing.class)
    public TaskObservations errandTaskObservations(ObservationRegistry registry) {
        return new TaskObservations(registry);
    }
}
