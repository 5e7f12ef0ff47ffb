package dev.errand.examples.sms;

/**
 * The payload of a {@code send-sms} task: which message to send. The text stays in the message row, so
 * the task carries only the id.
 *
 * @param messageId the {@code sms_message} row's id
 */
public record SendSms(String messageId) {}
