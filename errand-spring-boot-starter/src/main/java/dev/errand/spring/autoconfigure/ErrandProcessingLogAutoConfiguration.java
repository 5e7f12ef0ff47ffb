package dev.errand.spring.autoconfigure;

import dev.errand.spring.logging.ProcessingLogAppender;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * Captures the log events of handler threads into each attempt's processing log, when Logback is the
 * logging system and {@code errand.processing-logs.enabled} is not {@code false}. The lines are stored with
 * the attempt in the attempt history.
 */
@AutoConfiguration(after = ErrandAutoConfiguration.class)
@ConditionalOnClass(name = "ch.qos.logback.classic.LoggerContext")
@ConditionalOnProperty(prefix = "errand", name = "processing-logs.enabled", matchIfMissing = true)
public class ErrandProcessingLogAutoConfiguration {

    /** Creates the auto-configuration; Spring calls it. */
    public ErrandProcessingLogAutoConfiguration() {}

    /** Attaches the appender to Logback's root logger, and detaches it when the context closes. */
    @Bean
    @ConditionalOnMissingBean
    public ProcessingLogCapture errandProcessingLogCapture() {
        return new ProcessingLogCapture(ProcessingLogAppender.attach());
    }

    /**
     * The attached appender, as a bean so that closing the context detaches it.
     *
     * @param appender the attached appender, or {@code null} when SLF4J is not bound to Logback
     */
    public record ProcessingLogCapture(ProcessingLogAppender appender) implements DisposableBean {

        /** Whether log events are captured (SLF4J is bound to Logback). */
        public boolean active() {
            return appender != null;
        }

        @Override
        public void destroy() {
            if (appender != null) {
                appender.detach();
            }
        }
    }
}
