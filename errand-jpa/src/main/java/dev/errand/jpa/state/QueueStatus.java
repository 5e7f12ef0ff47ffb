package dev.errand.jpa.state;

/**
 * Where an entity stands in one of its queues. Stored by name in the state's {@code status} column, so
 * operators can read and write it with plain SQL.
 */
public enum QueueStatus {
    /** Waiting for its next attempt, due at {@code next_attempt_at} ({@code NULL}: as soon as possible). */
    PENDING,
    /** Claimed by a node that holds its lease; being processed now. */
    IN_PROGRESS,
    /** Processed successfully. */
    DONE,
    /** Failed on its last allowed attempt; stays until it is reset or re-enqueued. */
    FAILED
}
