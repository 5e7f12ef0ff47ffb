package dev.errand.examples.sms;

import dev.errand.retry.RetryPolicy;
import dev.errand.spring.ErrandTaskCustomizer;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
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
// Hibernate and Spring Data JPA are on this module's class path for the JPA demo (dev.errand.examples.jpa);
// this demo runs on JDBC.
@SpringBootApplication(
        excludeName = {
            "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration",
            "org.springframework.boot.data.jpa.autoconfigure.DataJpaRepositoriesAutoConfiguration"
        })
@EnableConfigurationProperties(SmsDemoProperties.class)
public class SmsDemoApplication {

    /** Starts the demo. */
    public static void main(String[] args) throws InterruptedException {
        ConfigurableApplicationContext context = SpringApplication.run(SmsDemoApplication.class, args);
        if (!context.getBean(SmsDemoProperties.class).isExitWhenDone()) {
            return; // The web server keeps the application running; the run goes on on its own thread.
        }
        // The application is ready and the run goes on on its own thread (SmsDemoRunner): wait for it.
        SmsDemoSummary summary;
        try {
            summary = context.getBean(SmsDemoRunner.class).awaitSummary();
        } catch (CancellationException e) {
            return; // The application was closed (Ctrl-C) before the run ended; it is shutting down already.
        } catch (ExecutionException e) {
            summary = null; // The run failed; SmsDemoRunner logged why.
        }
        boolean complete = summary != null && summary.complete();
        System.exit(SpringApplication.exit(context, () -> complete ? 0 : 1));
    }

    /**
     * The retry rule of {@code send-sms}, from the {@code sms.*} properties: a customizer, because an
     * annotation cannot choose between policies at run time.
     */
    @Bean
    ErrandTaskCustomizer smsRetries(SmsDemoProperties properties) {
        return ErrandTaskCustomizer.forKind(SmsSender.KIND.name(), definition -> definition
                .maxAttempts(properties.getMaxAttempts())
                .retryPolicy(
                        properties.getRetry() == SmsDemoProperties.Retry.FIXED
                                ? RetryPolicy.fixed(properties.getRetryDelay())
                                : RetryPolicy.exponential(properties.getRetryDelay(), properties.getRetryMaxDelay())));
    }
}
