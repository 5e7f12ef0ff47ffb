package dev.errand.batch;

import java.time.Instant;

/**
 * How far a batch has come, read from its counters without scanning its tasks.
 *
 * @param batchId the batch
 * @param total how many tasks it has
 * @param succeeded how many of them succeeded
 * @param failed how many failed for good (after their retries, or expired)
 * @param cancelled how many were cancelled
 * @param cancelledAt when the batch was cancelled, or {@code null}
 */
public record BatchProgress(
        long batchId, long total, long succeeded, long failed, long cancelled, Instant cancelledAt) {

    /** How many tasks have not finished yet: waiting, pending or running. */
    public long pending() {
        return Math.max(0, total - succeeded - failed - cancelled);
    }

    /** Whether every task has finished. */
    public boolean isFinished() {
        return pending() == 0;
    }

    /** Whether every task succeeded. */
    public boolean isSucceeded() {
        return succeeded == total;
    }
}
