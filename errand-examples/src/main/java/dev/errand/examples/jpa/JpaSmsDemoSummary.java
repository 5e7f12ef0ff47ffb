package dev.errand.examples.jpa;

import dev.errand.jpa.state.QueueStatus;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What a run of the JPA SMS demo did.
 *
 * @param batch the run's batch id
 * @param messages the batch's messages as they ended
 * @param send the send queue's counts over every batch
 * @param crm the CRM queue's counts over every batch
 * @param elapsed from queueing to the last final state
 * @param complete whether every message of every batch reached a final state in time
 */
public record JpaSmsDemoSummary(
        String batch,
        List<SmsMessage> messages,
        Map<QueueStatus, Long> send,
        Map<QueueStatus, Long> crm,
        Duration elapsed,
        boolean complete) {

    /** The batch's messages in {@code status} in the send queue. */
    public List<SmsMessage> sent(QueueStatus status) {
        return messages.stream().filter(m -> m.sendState().status() == status).toList();
    }
}
