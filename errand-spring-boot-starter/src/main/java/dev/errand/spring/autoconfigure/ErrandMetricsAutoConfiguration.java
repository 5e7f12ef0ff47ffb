package dev.errand.spring.autoconfigure;

import dev.errand.Errand;
import dev.errand.spring.TaskStatistics;
import dev.errand.spring.metrics.ErrandMetrics;
import dev.errand.spring.metrics.ErrandQueueMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Registers Errand's Micrometer meters when Micrometer is on the class path and a {@link MeterRegistry}
 * bean exists: the {@link ErrandMetrics} task listener (counters and the execution timer), which the
 * Errand node picks up like any {@code TaskListener} bean, and the {@link ErrandQueueMetrics} gauges for
 * this node's queues.
 */
@AutoConfiguration(
        after = ErrandAutoConfiguration.class,
        afterName = {
            "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"
        })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({Errand.class, MeterRegistry.class})
public class ErrandMetricsAutoConfiguration {

    /** Creates the auto-configuration; Spring calls it. */
    public ErrandMetricsAutoConfiguration() {}

    /** Counters and the execution timer, fed by the node's task events. */
    @Bean
    @ConditionalOnMissingBean
    public ErrandMetrics errandMetrics(MeterRegistry registry) {
        return new ErrandMetrics(registry);
    }

    /** Depth and lag gauges for each queue this node declares. */
    @Bean
    @ConditionalOnMissingBean
    public ErrandQueueMetrics errandQueueMetrics(Errand errand, TaskStatistics statistics) {
        return new ErrandQueueMetrics(
                statistics, List.copyOf(errand.settings().queues().keySet()));
    }
}
