package dev.errand.node;

import dev.errand.config.Settings;
import java.time.Duration;

/**
 * A run-time change of a queue's settings on every node; unset values stay as they are. Each value is
 * checked against the range of its node setting in {@link Settings}.
 *
 * @param concurrency the workers per node, or null
 * @param pollInterval the poll interval, or null
 * @param claimBatchSize the most tasks per claim, or null
 */
public record QueueChange(Integer concurrency, Duration pollInterval, Integer claimBatchSize) {

    /**
     * Checks the values.
     *
     * @throws IllegalArgumentException if nothing is set, or a value is out of its setting's range
     */
    public QueueChange {
        if (concurrency == null && pollInterval == null && claimBatchSize == null) {
            throw new IllegalArgumentException(
                    "A queue change must set at least one of concurrency, pollInterval, claimBatchSize");
        }
        if (concurrency != null) {
            Settings.CONCURRENCY.require(concurrency);
        }
        if (pollInterval != null) {
            Settings.POLL_INTERVAL.require(pollInterval);
        }
        if (claimBatchSize != null) {
            Settings.CLAIM_BATCH_SIZE.require(claimBatchSize);
        }
    }

    /** A change of the concurrency only. */
    public static QueueChange concurrency(int concurrency) {
        return new QueueChange(concurrency, null, null);
    }

    /** A change of the poll interval only. */
    public static QueueChange pollInterval(Duration interval) {
        return new QueueChange(null, interval, null);
    }

    /** A change of the claim batch size only. */
    public static QueueChange claimBatchSize(int size) {
        return new QueueChange(null, null, size);
    }
}
