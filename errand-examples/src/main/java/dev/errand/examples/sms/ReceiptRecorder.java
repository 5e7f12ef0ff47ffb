package dev.errand.examples.sms;

import dev.errand.spring.ErrandTask;
import dev.errand.task.FailedTask;
import dev.errand.task.FailureCallback;
import dev.errand.task.FailureCause;
import dev.errand.task.TaskContext;
import dev.errand.task.TaskHandler;
import dev.errand.task.TaskKind;
import java.sql.Connection;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Records the delivery receipt of a sent message. Its task is enqueued by {@link SmsSender} in the
 * transaction that marks the message sent, waiting for the event {@code sms-delivered:<id>}, with a
 * deadline ({@code sms.receipt-timeout}). The event releases it and it records DELIVERED; if the deadline
 * passes first, the task fails as expired and the failure callback records UNCONFIRMED.
 */
@Component
@ErrandTask(value = ReceiptRecorder.KIND_NAME, maxAttempts = 3)
public class ReceiptRecorder implements TaskHandler<SendSms>, FailureCallback<SendSms> {

    /** The kind's name. */
    public static final String KIND_NAME = "record-receipt";

    /** The task kind, for enqueueing. */
    public static final TaskKind<SendSms> KIND = TaskKind.of(KIND_NAME, SendSms.class);

    static final String DELIVERED = "DELIVERED";
    static final String UNCONFIRMED = "UNCONFIRMED";

    private final JdbcTemplate jdbc;

    /** Creates the recorder. */
    public ReceiptRecorder(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Records the delivery, in the task's transaction. */
    @Override
    public void handle(SendSms receipt, TaskContext context) {
        jdbc.update(
                "INSERT INTO sms_receipt (message_id, outcome, detail) VALUES (?, ?, ?)",
                receipt.messageId(),
                DELIVERED,
                "reported by the gateway");
    }

    /** Records that no delivery report came in time, or why the receipt could not be recorded. */
    @Override
    public void onFailure(FailedTask<SendSms> task, Connection connection) {
        if (task.payload() == null) {
            return;
        }
        String detail = task.cause() instanceof FailureCause.Expired expired
                ? "no delivery report by " + expired.deadline()
                : task.cause().describe();
        jdbc.update(
                "INSERT INTO sms_receipt (message_id, outcome, detail) VALUES (?, ?, ?)",
                task.payload().messageId(),
                UNCONFIRMED,
                detail.length() > 500 ? detail.substring(0, 500) : detail);
    }
}
