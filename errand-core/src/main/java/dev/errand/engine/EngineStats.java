package dev.errand.engine;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of what this node's engine did since it started. Cheap to update from every worker; read
 * them for logs, tests or a metrics bridge.
 */
public final class EngineStats {

    private final LongAdder claimed = new LongAdder();
    private final LongAdder succeeded = new LongAdder();
    private final LongAdder retried = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder rescued = new LongAdder();
    private final LongAdder fencedOff = new LongAdder();

    void recordClaimed(int count) {
        claimed.add(count);
    }

    void recordSucceeded(int count) {
        succeeded.add(count);
    }

    void recordRetried() {
        retried.increment();
    }

    void recordFailed() {
        failed.increment();
    }

    void recordRescued() {
        rescued.increment();
    }

    void recordFencedOff(int count) {
        fencedOff.add(count);
    }

    /** Tasks claimed by this node. */
    public long claimed() {
        return claimed.sum();
    }

    /** Tasks this node completed successfully. */
    public long succeeded() {
        return succeeded.sum();
    }

    /** Attempts this node scheduled for retry (including retry-later requests). */
    public long retried() {
        return retried.sum();
    }

    /** Tasks this node marked failed for good. */
    public long failed() {
        return failed.sum();
    }

    /** Expired leases this node rescued. */
    public long rescued() {
        return rescued.sum();
    }

    /** Writes that found the lease taken back and changed nothing. */
    public long fencedOff() {
        return fencedOff.sum();
    }

    @Override
    public String toString() {
        return "EngineStats[claimed=" + claimed() + ", succeeded=" + succeeded() + ", retried=" + retried()
                + ", failed=" + failed() + ", rescued=" + rescued() + ", fencedOff=" + fencedOff() + "]";
    }
}
