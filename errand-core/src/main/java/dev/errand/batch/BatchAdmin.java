package dev.errand.batch;

import java.util.Map;
import java.util.Optional;

/** Reads and cancels batches; each call runs in a transaction of its own. */
public interface BatchAdmin {

    /**
     * A batch's progress, from its counters (a few rows, however many tasks it has).
     *
     * @return empty if there is no such batch
     * @throws IllegalArgumentException if {@code batchId} is not positive
     */
    Optional<BatchProgress> progress(long batchId);

    /**
     * Cancels a batch: its tasks that have not started (pending or waiting) are cancelled in one
     * transaction, and count as cancelled. Running tasks finish as they finish. The batch's callbacks fire
     * as its counts say: {@link BatchEvent#COMPLETE} once nothing is left running.
     *
     * @return how many tasks it cancelled; 0 if the batch was cancelled already
     * @throws IllegalArgumentException if {@code batchId} is not positive or there is no such batch
     */
    long cancel(long batchId);

    /**
     * The callbacks of a batch that fired, with the id of the task each created.
     *
     * @throws IllegalArgumentException if {@code batchId} is not positive
     */
    Map<BatchEvent, Long> firedCallbacks(long batchId);
}
