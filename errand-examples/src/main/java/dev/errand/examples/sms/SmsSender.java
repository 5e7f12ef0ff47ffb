package dev.errand.examples.sms;

import dev.errand.spring.ErrandTask;
import dev.errand.task.FailedTask;
import dev.errand.task.FailureCallback;
import dev.errand.task.TaskContext;
import dev.errand.task.TaskHandler;
import java.sql.Connection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Sends one message per {@code send-sms} task. It runs in the task's transaction (the default mode), so
 * marking the message sent commits together with the task's completion. When a message's last attempt
 * fails, {@link #onFailure} records the failure on the message, in the transaction that marks the task
 * failed. Attempts and delays come from the {@code smsRetries} customizer in {@link SmsDemoApplication}.
 *
 * <p>A real gateway call is at-least-once whatever the mode: if the commit after a successful send fails,
 * the message is sent again. That is the usual trade for outside calls.
 */
@Component
@ErrandTask(SmsSender.KIND)
public class SmsSender implements TaskHandler<SendSms>, FailureCallback {

    /** The task kind. */
    public static final String KIND = "send-sms";

    private static final Logger log = LoggerFactory.getLogger(SmsSender.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final SmsOutbox outbox;
    private final FlakySmsGateway gateway;

    /** Creates the sender. */
    public SmsSender(SmsOutbox outbox, FlakySmsGateway gateway) {
        this.outbox = outbox;
        this.gateway = gateway;
    }

    /** Sends the message and marks it sent, or throws so that Errand retries or fails it. */
    @Override
    public void handle(SendSms task, TaskContext context) throws InterruptedException {
        SmsMessage message = outbox.find(task.messageId());
        try {
            gateway.send(message.recipient(), message.body());
        } catch (FlakySmsGateway.GatewayException e) {
            log.info("SMS to {} failed on attempt {} of {}: {}{}", message.recipient(), context.attempt(),
                    context.maxAttempts(), e.getMessage(), context.isLastAttempt() ? "; giving up" : "; will retry");
            throw e;
        }
        outbox.markSent(message.id(), context.attempt());
        log.info("SMS to {} sent on attempt {} of {}", message.recipient(), context.attempt(), context.maxAttempts());
    }

    /** Records the final failure on the message. */
    @Override
    public void onFailure(FailedTask task, Connection connection) {
        String messageId = JSON.readTree(task.payloadJson()).get("messageId").asString();
        // last_error holds a stack trace; the message keeps its first line without the exception's class.
        String firstLine = task.error().lines().findFirst().orElse(task.error());
        String reason = firstLine.matches("^[\\w.$]+: .*") ? firstLine.substring(firstLine.indexOf(": ") + 2) : firstLine;
        outbox.markFailed(messageId, task.attempts(), reason);
    }
}
