package dev.errand.batch;

import java.time.Instant;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * One batch as {@link BatchAdmin#list} shows it.
 *
 * @param progress its counts
 * @param createdAt when it was enqueued, on the database clock
 * @param callbacks its callbacks, fired or not. A callback that can no longer fire (the success callback of a
 *     batch with a failure) is removed when the batch finishes and is not listed then
 */
public record BatchSummary(BatchProgress progress, Instant createdAt, Map<BatchEvent, CallbackState> callbacks) {

    /** Copies the map. */
    public BatchSummary {
        callbacks = callbacks.isEmpty() ? Map.of() : Collections.unmodifiableMap(new EnumMap<>(callbacks));
    }

    /** The batch's id. */
    public long batchId() {
        return progress.batchId();
    }
}
