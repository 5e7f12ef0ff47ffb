package dev.errand.history;

import java.time.Duration;
import java.time.Instant;

/**
 * One ended attempt of a task.
 *
 * @param id the history row's id
 * @param taskId the task's id (the task itself may be gone)
 * @param kind the task's kind
 * @param queue the task's queue
 * @param attempt the attempt's number, from 1 (0 for an expiry before any attempt)
 * @param node the node that ran it, or that recorded its end (rescue, expiry)
 * @param startedAt when the handler started, or {@code null} when no handler ran on a known clock (rescue, expiry)
 * @param finishedAt when the attempt's end was recorded, on the database's clock
 * @param duration how long the handler ran, or {@code null}
 * @param outcome how it ended
 * @param error what went wrong, or {@code null} for a success or a snooze
 * @param logs the attempt's processing log: the lines its handler wrote, and the log events of its thread
 *     where a logging integration captures them; {@code null} when there were none
 */
public record Attempt(
        long id,
        long taskId,
        String kind,
        String queue,
        int attempt,
        String node,
        Instant startedAt,
        Instant finishedAt,
        Duration duration,
        AttemptOutcome outcome,
        AttemptError error,
        String logs) {

    /**
     * The error of a failed attempt.
     *
     * @param type the exception's class name, or the kind of failure Errand saw ({@code WorkerLost}, {@code Expired}, ...)
     * @param message the exception's message or the failure's description, or {@code null}
     * @param stackTrace the stack trace, cut to the configured length, or {@code null} when there was no exception
     */
    public record AttemptError(String type, String message, String stackTrace) {}
}
