package dev.errand.examples.sms;

import dev.errand.enqueue.TaskRequest;
import dev.errand.spring.ErrandClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** The {@code sms_message} table: queueing messages with their tasks, and marking them sent or failed. */
@Service
public class SmsOutbox {

    static final String QUEUED = "QUEUED";
    static final String SENT = "SENT";
    static final String FAILED = "FAILED";

    private final JdbcTemplate jdbc;
    private final ErrandClient errand;

    /** Creates the outbox. */
    public SmsOutbox(JdbcTemplate jdbc, ErrandClient errand) {
        this.jdbc = jdbc;
        this.errand = errand;
    }

    /**
     * Queues {@code count} messages, each with its {@code send-sms} task, in one transaction: if anything
     * fails, neither the rows nor the tasks exist.
     */
    @Transactional
    public List<String> queue(String batch, int count) {
        List<String> ids = new ArrayList<>();
        List<TaskRequest> tasks = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            String id = UUID.randomUUID().toString();
            // Every tenth number ends in 00: the gateway does not know those subscribers, so they always fail.
            String recipient = String.format("+38591%04d%s", i, i % 10 == 0 ? "00" : String.format("%02d", i % 97));
            jdbc.update(
                    "INSERT INTO sms_message (id, batch, recipient, body, status, attempts) VALUES (?, ?, ?, ?, ?, 0)",
                    id,
                    batch,
                    recipient,
                    "Hello #" + i + " from the Errand SMS demo",
                    QUEUED);
            ids.add(id);
            tasks.add(TaskRequest.of(SmsSender.KIND, new SendSms(id)));
        }
        errand.enqueueAll(tasks);
        return ids;
    }

    /** Reads one message. */
    public SmsMessage find(String id) {
        return jdbc.queryForObject(
                "SELECT id, batch, recipient, body, status, attempts, last_error FROM sms_message" + " WHERE id = ?",
                (row, n) -> new SmsMessage(
                        row.getString(1),
                        row.getString(2),
                        row.getString(3),
                        row.getString(4),
                        row.getString(5),
                        row.getInt(6),
                        row.getString(7)),
                id);
    }

    /** Marks a message sent; called inside the task's transaction, so it commits with the task's completion. */
    public void markSent(String id, int attempts) {
        jdbc.update(
                "UPDATE sms_message SET status = ?, attempts = ?, last_error = NULL WHERE id = ?", SENT, attempts, id);
    }

    /** Marks a message failed for good; called in the transaction that marks its task failed. */
    public void markFailed(String id, int attempts, String error) {
        jdbc.update(
                "UPDATE sms_message SET status = ?, attempts = ?, last_error = ? WHERE id = ?",
                FAILED,
                attempts,
                error,
                id);
    }

    /** Messages per status in a batch. */
    public Map<String, Long> statusCounts(String batch) {
        return jdbc
                .query(
                        "SELECT status, COUNT(*) FROM sms_message WHERE batch = ? GROUP BY status",
                        (row, n) -> Map.entry(row.getString(1), row.getLong(2)),
                        batch)
                .stream()
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    /** Sent messages of a batch that have no receipt yet: their delivery report or deadline is still ahead. */
    public long awaitingReceipt(String batch) {
        return jdbc.queryForObject(
                "SELECT COUNT(*) FROM sms_message m WHERE m.batch = ? AND m.status = ? AND NOT EXISTS"
                        + " (SELECT 1 FROM sms_receipt r WHERE r.message_id = m.id)",
                Long.class,
                batch,
                SENT);
    }

    /** Receipts of a batch's messages by outcome: DELIVERED or UNCONFIRMED. */
    public Map<String, Long> receiptCounts(String batch) {
        return jdbc
                .query(
                        "SELECT r.outcome, COUNT(*) FROM sms_receipt r JOIN sms_message m ON m.id = r.message_id"
                                + " WHERE m.batch = ? GROUP BY r.outcome",
                        (row, n) -> Map.entry(row.getString(1), row.getLong(2)),
                        batch)
                .stream()
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    /** Messages of every batch that are still queued, for example left by an interrupted earlier run. */
    public long queuedInAllBatches() {
        return jdbc.queryForObject("SELECT COUNT(*) FROM sms_message WHERE status = ?", Long.class, QUEUED);
    }

    /** The messages of a batch. */
    public List<SmsMessage> messages(String batch) {
        return jdbc.query(
                "SELECT id, batch, recipient, body, status, attempts, last_error FROM sms_message"
                        + " WHERE batch = ? ORDER BY recipient",
                (row, n) -> new SmsMessage(
                        row.getString(1),
                        row.getString(2),
                        row.getString(3),
                        row.getString(4),
                        row.getString(5),
                        row.getInt(6),
                        row.getString(7)),
                batch);
    }
}
