package dev.errand.examples.sms;

import dev.errand.enqueue.TaskRequest;
import dev.errand.event.Condition;
import dev.errand.spring.ErrandClient;
import dev.errand.spring.ErrandTask;
import dev.errand.task.FailedTask;
import dev.errand.task.FailureCallback;
import dev.errand.task.FailureCause;
import dev.errand.task.TaskContext;
import dev.errand.task.TaskHandler;
import dev.errand.task.TaskKind;
import java.sql.Connection;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Sends one message per {@code send-sms} task. It runs in the task's transaction (the default mode), so
 * marking the message sent commits together with the task's completion. When a message's last attempt
 * fails, {@link #onFailure} records the failure on the message, in the transaction that marks the task
 * failed. Attempts and delays come from the {@code smsRetries} customizer in {@link SmsDemoApplication}.
 *
 * <p>A sent message gets a receipt task in the same transaction; it waits for the gateway's delivery report
 * ({@link DeliveryReports}, {@link ReceiptRecorder}).
 *
 * <p>A real gateway call is at-least-once whatever the mode: if the commit after a successful send fails,
 * the message is sent again. That is the usual trade for outside calls.
 */
@Component
@ErrandTask(SmsSender.KIND_NAME)
public class SmsSender implements TaskHandler<SendSms>, FailureCallback<SendSms> {

    /** The kind's name, a constant so that {@link ErrandTask} can name it. */
    public static final String KIND_NAME = "send-sms";

    /** The task kind and its payload type, for enqueueing ({@link SmsOutbox}) and customizing. */
    public static final TaskKind<SendSms> KIND = TaskKind.of(KIND_NAME, SendSms.class);

    private static final Logger log = LoggerFactory.getLogger(SmsSender.class);

    private final SmsOutbox outbox;
    private final FlakySmsGateway gateway;
    private final DeliveryReports reports;
    private final ErrandClient errand;
    private final Duration receiptTimeout;

    /** Creates the sender. */
    public SmsSender(
            SmsOutbox outbox,
            FlakySmsGateway gateway,
            DeliveryReports reports,
            ErrandClient errand,
            SmsDemoProperties properties) {
        this.outbox = outbox;
        this.gateway = gateway;
        this.reports = reports;
        this.errand = errand;
        this.receiptTimeout = properties.getReceiptTimeout();
    }

    /** Sends the message and marks it sent, or throws so that Errand retries or fails it. */
    @Override
    public void handle(SendSms task, TaskContext context) throws InterruptedException {
        SmsMessage message = outbox.find(task.messageId());
        try {
            gateway.send(message.recipient(), message.body());
        } catch (FlakySmsGateway.GatewayException e) {
            log.info(
                    "SMS to {} failed on attempt {} of {}: {}{}",
                    message.recipient(),
                    context.attempt(),
                    context.maxAttempts(),
                    e.getMessage(),
                    context.isLastAttempt() ? "; giving up" : "; will retry");
            throw e;
        }
        // The gateway reports the delivery later, maybe even before this transaction commits.
        reports.accepted(message.id());
        outbox.markSent(message.id(), context.attempt());
        // In the same transaction: a receipt task that waits for the delivery report, at most receiptTimeout.
        // The deadline is the condition's: once the report is in, the receipt runs however busy the queue is.
        errand.enqueue(TaskRequest.builder(ReceiptRecorder.KIND, task)
                .condition(Condition.on(DeliveryReports.deliveredEvent(message.id()))
                        .timeout(receiptTimeout))
                .priority(1)
                .build());
        log.info("SMS to {} sent on attempt {} of {}", message.recipient(), context.attempt(), context.maxAttempts());
    }

    /**
     * Records the final failure on the message. The payload arrives decoded, and the cause tells a
     * gateway error (the handler threw: its message is the reason) from Errand giving up for another
     * reason, such as a lost worker.
     */
    @Override
    public void onFailure(FailedTask<SendSms> task, Connection connection) {
        if (task.payload() == null) {
            // Only a task written by hand (SQL, another service) can carry a payload that does not decode.
            log.warn(
                    "send-sms task {} failed without a readable payload, so no message to mark: {}",
                    task.id(),
                    task.cause().describe());
            return;
        }
        outbox.markFailed(task.payload().messageId(), task.attempts(), reason(task.cause()));
    }

    /** Why the message failed, in a few words for {@code sms_message.last_error}. */
    static String reason(FailureCause cause) {
        if (cause instanceof FailureCause.HandlerFailed failed && failed.message() != null) {
            return failed.message();
        }
        return cause.describe();
    }
}
