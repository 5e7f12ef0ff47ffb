package dev.errand.spring.autoconfigure;

import dev.errand.spring.ErrandBuilderCustomizer;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnThreading;
import org.springframework.boot.thread.Threading;
import org.springframework.context.annotation.Bean;

/**
 * Runs Errand's handlers on virtual threads when the application runs on them ({@code spring.threads.virtual.enabled=true}
 * on Java 21 and later) and {@code errand.virtual-threads} is not set: {@code errand.virtual-threads=false} keeps
 * platform threads, and {@code true} turns them on without Spring's setting.
 */
@AutoConfiguration(after = ErrandAutoConfiguration.class)
@ConditionalOnBean(ErrandProperties.class)
@ConditionalOnThreading(Threading.VIRTUAL)
public class ErrandVirtualThreadsAutoConfiguration {

    /** Creates the auto-configuration; Spring calls it. */
    public ErrandVirtualThreadsAutoConfiguration() {}

    /** Turns virtual threads on unless {@code errand.virtual-threads} says otherwise. */
    @Bean
    public ErrandBuilderCustomizer errandVirtualThreadsCustomizer(ErrandProperties properties) {
        return builder -> {
            if (properties.getVirtualThreads() == null) {
                builder.virtualThreads(true);
            }
        };
    }
}
