package dev.errand.spring.autoconfigure;

import dev.errand.Errand;
import dev.errand.spring.TaskStatistics;
import dev.errand.spring.actuate.ErrandHealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * Registers the {@code errand} health indicator when Spring Boot's health support is on the class path and
 * {@code management.health.errand.enabled} is not false.
 */
@AutoConfiguration(after = ErrandAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean({Errand.class, TaskStatistics.class})
@ConditionalOnEnabledHealthIndicator("errand")
public class ErrandHealthAutoConfiguration {

    /** Creates the auto-configuration; Spring calls it. */
    public ErrandHealthAutoConfiguration() {}

    /** The health indicator, named {@code errand} after its bean name. */
    @Bean
    @ConditionalOnMissingBean(name = "errandHealthIndicator")
    public ErrandHealthIndicator errandHealthIndicator(Errand errand, TaskStatistics statistics) {
        return new ErrandHealthIndicator(errand, statistics);
    }
}
