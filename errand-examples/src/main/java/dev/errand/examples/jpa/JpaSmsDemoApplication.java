package dev.errand.examples.jpa;

import dev.errand.jpa.queue.EntityQueueDefinition;
import dev.errand.jpa.state.QueueStatus;
import dev.errand.retry.RetryPolicy;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * The SMS demo on entity queues (errand-jpa): the {@link SmsMessage} entity is the queue. The run saves
 * {@code jpa-sms.messages} messages with their send state pending, the "sms-send" queue sends each through a
 * flaky gateway in a transaction of its own and retries it after a fixed delay, up to
 * {@code jpa-sms.max-attempts}; a message sent, or failed for good, is then queued in "crm-notify", the
 * entity's second queue. The application prints a summary and exits (0 when every message reached a final
 * state).
 *
 * <p>It reads {@code jpa-sms-demo.properties}, not the other demo's {@code application.properties}.
 */
@SpringBootApplication
@EnableConfigurationProperties(JpaSmsDemoProperties.class)
public class JpaSmsDemoApplication {

    /** The name of the queue that sends messages. */
    public static final String SEND_QUEUE = "sms-send";

    /** The name of the queue that tells the CRM about sent messages. */
    public static final String CRM_QUEUE = "crm-notify";

    /** The demo's configuration file, {@code jpa-sms-demo.properties}. */
    public static final Map<String, Object> CONFIG = Map.of("spring.config.name", "jpa-sms-demo");

    private static final Logger log = LoggerFactory.getLogger(JpaSmsDemoApplication.class);

    /** Starts the demo. */
    public static void main(String[] args) throws InterruptedException {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(JpaSmsDemoApplication.class)
                .properties(CONFIG)
                .run(args);
        if (!context.getBean(JpaSmsDemoProperties.class).isExitWhenDone()) {
            return;
        }
        JpaSmsDemoSummary summary;
        try {
            summary = context.getBean(JpaSmsDemoRunner.class).awaitSummary();
        } catch (CancellationException e) {
            return; // Closed (Ctrl-C) before the run ended.
        } catch (ExecutionException e) {
            summary = null; // The runner logged why.
        }
        boolean complete = summary != null && summary.complete();
        System.exit(SpringApplication.exit(context, () -> complete ? 0 : 1));
    }

    /** The gateway. */
    @Bean
    FlakyGateway flakyGateway(JpaSmsDemoProperties properties) {
        return new FlakyGateway(properties);
    }

    /**
     * Sends a message. A failure rolls the attempt back and is retried after a fixed delay. Whether the message
     * is sent or, after its last attempt, failed for good, it is queued for the CRM in the same transaction that
     * marks it so.
     */
    @Bean
    EntityQueueDefinition<SmsMessage> smsSending(FlakyGateway gateway, JpaSmsDemoProperties properties) {
        return EntityQueueDefinition.builder(SmsMessage.class, "sendState", (sms, context) -> {
                    try {
                        gateway.send(sms);
                    } catch (FlakyGateway.GatewayException e) {
                        log.info(
                                "SMS to {} failed on attempt {} of {}: {}{}",
                                sms.toAddress(),
                                context.attempt(),
                                context.maxAttempts(),
                                e.getMessage(),
                                context.isLastAttempt() ? "" : "; will retry");
                        throw e;
                    }
                    log.info("Sent SMS {} to {} on attempt {}", sms.id(), sms.toAddress(), context.attempt());
                    sms.crmState().enqueue();
                })
                .name(SEND_QUEUE)
                .concurrency(4)
                .retryPolicy(RetryPolicy.fixed(properties.getRetryDelay()))
                .maxAttempts(properties.getMaxAttempts())
                // Runs in the transaction that marks the message failed: the CRM is told exactly once.
                .onFinalFailure((sms, failure) -> sms.crmState().enqueue())
                .build();
    }

    /** Tells the pretend CRM whether a message was delivered. */
    @Bean
    EntityQueueDefinition<SmsMessage> crmNotifying() {
        return EntityQueueDefinition.builder(
                        SmsMessage.class,
                        "crmState",
                        (sms, context) -> log.debug(
                                "CRM told: SMS {} to {} {}",
                                sms.id(),
                                sms.toAddress(),
                                sms.sendState().status() == QueueStatus.DONE ? "delivered" : "undeliverable"))
                .name(CRM_QUEUE)
                .concurrency(2)
                .build();
    }
}
