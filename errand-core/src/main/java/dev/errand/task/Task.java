package dev.errand.task;

import java.time.Instant;

/**
 * A snapshot of one task row, as the admin API reads it. Times come from the database.
 *
 * @param id the task's id
 * @param kind its kind
 * @param queue its queue
 * @param payloadJson its JSON payload, or {@code null}
 * @param priority 1 (runs first) to 10 (runs last)
 * @param state its state
 * @param runAt the earliest time it may run
 * @param attempt attempts started so far
 * @param maxAttempts the most attempts it may have
 * @param createdAt when it was enqueued
 * @param startedAt when its last attempt started, or {@code null}
 * @param finishedAt when it reached a final state, or {@code null}
 * @param leaseOwner the node holding its lease, or {@code null}
 * @param leaseExpiresAt when that lease expires, or {@code null}
 * @param lastError the last error text, or {@code null}
 * @param errorsJson a JSON array with one entry per failed attempt, or {@code null}
 * @param uniqueKey its unique key, or {@code null}
 */
public record Task(
        long id,
        String kind,
        String queue,
        String payloadJson,
        int priority,
        TaskState state,
        Instant runAt,
        int attempt,
        int maxAttempts,
        Instant createdAt,
        Instant startedAt,
        Instant finishedAt,
        String leaseOwner,
        Instant leaseExpiresAt,
        String lastError,
        String errorsJson,
        String uniqueKey) {}
