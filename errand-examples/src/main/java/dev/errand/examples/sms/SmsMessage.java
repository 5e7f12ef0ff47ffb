package dev.errand.examples.sms;

/**
 * One row of {@code sms_message}.
 *
 * @param id its id
 * @param batch the run that queued it
 * @param recipient the phone number
 * @param body the text
 * @param status {@code QUEUED}, {@code SENT} or {@code FAILED}
 * @param attempts attempts used so far (written when the message reaches a final state)
 * @param lastError why the last attempt failed, for failed messages
 */
public record SmsMessage(
        String id, String batch, String recipient, String body, String status, int attempts, String lastError) {}
