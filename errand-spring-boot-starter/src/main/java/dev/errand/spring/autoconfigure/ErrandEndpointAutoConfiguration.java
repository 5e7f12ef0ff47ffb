package dev.errand.spring.autoconfigure;

import dev.errand.Errand;
import dev.errand.spring.ErrandTasks;
import dev.errand.spring.TaskStatistics;
import dev.errand.spring.actuate.ErrandEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Registers the {@code errand} actuator endpoint when Actuator is on the class path and the endpoint is
 * available (enabled and exposed, for example with {@code management.endpoints.web.exposure.include=errand}).
 */
@AutoConfiguration(after = ErrandAutoConfiguration.class)
@ConditionalOnClass({Endpoint.class, ConditionalOnAvailableEndpoint.class})
@ConditionalOnBean({Errand.class, ErrandTasks.class, TaskStatistics.class})
public class ErrandEndpointAutoConfiguration {

    /** Creates the auto-configuration; Spring calls it. */
    public ErrandEndpointAutoConfiguration() {}

    /** The endpoint. */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint
    public ErrandEndpoint errandEndpoint(Errand errand, ErrandTasks tasks, TaskStatistics statistics) {
        return new ErrandEndpoint(errand, tasks, statistics);
    }
}
