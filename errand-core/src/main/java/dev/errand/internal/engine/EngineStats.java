package dev.errand.internal.engine;

import dev.errand.node.NodeStats;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/** This node's counters, updated from every worker. */
public final class EngineStats implements NodeStats {

    private final LongAdder claimed = new LongAdder();
    private final LongAdder succeeded = new LongAdder();
    private final LongAdder retried = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder rescued = new LongAdder();
    private final LongAdder fencedOff = new LongAdder();
    private final LongAdder polls = new LongAdder();
    private final LongSupplier lockConflictRetries;

    /** Creates the counters; lock conflicts are counted by Errand's transactions, and read from them. */
    public EngineStats(LongSupplier lockConflictRetries) {
        this.lockConflictRetries = lockConflictRetries;
    }

    void recordClaimed(int count) {
        claimed.add(count);
        polls.increment();
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

    /**
     * How many claims the pollers made, whether they found tasks or not; not part of {@link NodeStats}. Tests
     * wait on it for "a poll has happened" instead of sleeping past it.
     */
    public long polls() {
        return polls.sum();
    }

    @Override
    public long claimed() {
        return claimed.sum();
    }

    @Override
    public long succeeded() {
        return succeeded.sum();
    }

    @Override
    public long retried() {
        return retried.sum();
    }

    @Override
    public long failed() {
        return failed.sum();
    }

    @Override
    public long rescued() {
        return rescued.sum();
    }

    @Override
    public long fencedOff() {
        return fencedOff.sum();
    }

    @Override
    public long lockConflictRetries() {
        return lockConflictRetries.getAsLong();
    }

    @Override
    public String toString() {
        return "claimed=" + claimed() + ", succeeded=" + succeeded() + ", retried=" + retried() + ", failed=" + failed()
                + ", rescued=" + rescued() + ", fencedOff=" + fencedOff();
    }
}
