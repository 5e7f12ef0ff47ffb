package dev.errand.internal.store;

import java.time.Instant;

/**
 * A task row about to be inserted, with every default already resolved.
 *
 * @param kind the kind
 * @param queue the queue
 * @param payloadJson the JSON payload, or {@code null}
 * @param priority 1 to 10
 * @param runAt an explicit run time, or {@code null} to run at database time plus {@code delayMicros}
 * @param delayMicros microseconds after the database's current time (includes a test clock's offset)
 * @param maxAttempts the most attempts
 * @param uniqueKey the unique key, or {@code null}
 */
public record NewTask(
        String kind,
        String queue,
        String payloadJson,
        int priority,
        Instant runAt,
        long delayMicros,
        int maxAttempts,
        String uniqueKey) {}
