package dev.errand.examples.sms;

import dev.errand.retry.RetryPolicy;
import dev.errand.spring.ErrandTaskCustomizer;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * Runs the SMS demo: queues {@code sms.messages} messages, watches them until each is sent or has failed
 * for good, prints a summary and exits (0 when every message reached a final state). With
 * {@code --sms.exit-when-done=false} it keeps running so that {@code /actuator} can be browsed.
 */
@SpringBootApplication
@EnableConfigurationProperties(SmsDemoProperties.class)
public class SmsDemoApplication {

    /** Starts the demo. */
    public static void main(String[] args) {
        ConfigurableApplicationContext context = SpringApplication.run(SmsDemoApplication.class, args);
        // The runner has finished by now: SpringApplication.run calls runners before it returns.
        SmsDemoSummary summary = context.getBean(SmsDemoRunner.class).summary();
        if (context.getBean(SmsDemoProperties.class).isExitWhenDone()) {
            int code = SpringApplication.exit(context, () -> summary != null && summary.complete() ? 0 : 1);
            System.exit(code);
        }
    }

    /**
     * The retry rule of {@code send-sms}, from the {@code sms.*} properties: a customizer, because an
     * annotation cannot choose between policies at run time.
     */
    @Bean
    ErrandTaskCustomizer smsRetries(SmsDemoProperties properties) {
        return ErrandTaskCustomizer.forKind(SmsSender.KIND.name(), definition -> definition
                .maxAttempts(properties.getMaxAttempts())
                .retryPolicy(properties.getRetry() == SmsDemoProperties.Retry.FIXED
                        ? RetryPolicy.fixed(properties.getRetryDelay())
                        : RetryPolicy.exponential(properties.getRetryDelay(), properties.getRetryMaxDelay())));
    }
}
