package dev.errand.examples.sms;

import java.time.Duration;
import java.util.List;

/**
 * What a demo run did.
 *
 * @param batch the run's batch id
 * @param messages messages queued
 * @param sent messages sent
 * @param failed messages that failed for good
 * @param attempts attempts used by the batch's messages
 * @param elapsed from queueing to the last final state
 * @param complete whether every message of every batch reached a final state in time
 * @param failures the failed messages
 */
public record SmsDemoSummary(
        String batch,
        int messages,
        long sent,
        long failed,
        long attempts,
        Duration elapsed,
        boolean complete,
        List<SmsMessage> failures) {}
