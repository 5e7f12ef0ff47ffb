package dev.errand.event;

import java.time.Instant;
import java.util.List;

/**
 * A task that waits for events, with the conditions still open.
 *
 * @param id the task's id
 * @param kind its kind
 * @param queue its queue
 * @param createdAt when it was enqueued
 * @param expiresAt its own deadline, or {@code null}
 * @param openConditions the events it still waits for, with each one's deadline or {@code null}
 */
public record WaitingTask(
        long id, String kind, String queue, Instant createdAt, Instant expiresAt, List<OpenCondition> openConditions) {

    /** Copies the list. */
    public WaitingTask {
        openConditions = List.copyOf(openConditions);
    }

    /**
     * One condition a waiting task still waits for.
     *
     * @param event the event's name
     * @param expiresAt the condition's deadline, or {@code null}
     */
    public record OpenCondition(String event, Instant expiresAt) {}
}
