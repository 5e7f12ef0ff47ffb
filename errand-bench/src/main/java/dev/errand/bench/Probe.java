package dev.errand.bench;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * What every system's no-op handler calls: it counts runs and, for tasks enqueued with a stamp (a
 * {@link System#nanoTime()} taken just before the enqueue call), records the delay until the handler
 * started. Stamps only mean something inside one JVM, which is how the latency scenario runs.
 */
public final class Probe {

    private final LongAdder runs = new LongAdder();
    private final long[] latencies;
    private final AtomicInteger recorded = new AtomicInteger();

    /** A probe that can record up to {@code maxLatencies} latencies. */
    public Probe(int maxLatencies) {
        this.latencies = new long[maxLatencies];
    }

    /** Called by a handler when it starts; {@code stamp} is 0 for tasks without one. */
    public void ran(long stamp) {
        if (stamp > 0) {
            long latency = System.nanoTime() - stamp;
            int slot = recorded.getAndIncrement();
            if (slot < latencies.length) {
                latencies[slot] = latency;
            }
        }
        runs.increment();
    }

    /** Handler starts so far. */
    public long runs() {
        return runs.sum();
    }

    /** Forgets the recorded latencies (after a warm-up). */
    public void resetLatencies() {
        recorded.set(0);
    }

    /** The recorded latencies in nanoseconds, sorted. */
    public long[] sortedLatencies() {
        long[] copy = Arrays.copyOf(latencies, Math.min(recorded.get(), latencies.length));
        Arrays.sort(copy);
        return copy;
    }

    /** Waits until {@code target} handler starts happened, or throws after {@code timeoutMillis}. */
    public void awaitRuns(long target, long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (runs() < target) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException(
                        "Only " + runs() + " of " + target + " tasks ran within " + timeoutMillis + " ms");
            }
            Thread.sleep(2);
        }
    }

    /** The q-quantile (0..1) of sorted values, nearest rank. */
    public static long quantile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
