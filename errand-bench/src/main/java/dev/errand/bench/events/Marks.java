package dev.errand.bench.events;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts handler runs and measures the delay from a marked call (an enqueue, or the trigger of a pair) to
 * the start of the handler of the task it concerns. Only marks taken while the window is open are sampled.
 */
final class Marks {

    private final Map<Long, Long> starts = new ConcurrentHashMap<>();
    private final LongAdder runs = new LongAdder();
    private final LongAdder unmatched = new LongAdder();
    private final AtomicLongArray samples;
    private final AtomicInteger sampled = new AtomicInteger();
    private volatile long windowStart = Long.MAX_VALUE;
    private volatile long windowEnd = Long.MAX_VALUE;

    Marks(int maxSamples) {
        this.samples = new AtomicLongArray(maxSamples);
    }

    /** Marks the call about task {@code id} as starting now; call it before the call. */
    void mark(long id) {
        starts.put(id, System.nanoTime());
    }

    /** Called by the handler of task {@code id} (0 for a task without a mark). */
    void ran(long id) {
        long now = System.nanoTime();
        if (id > 0) {
            Long start = starts.remove(id);
            if (start == null) {
                unmatched.increment();
            } else if (start >= windowStart && start < windowEnd) {
                int slot = sampled.getAndIncrement();
                if (slot < samples.length()) {
                    samples.set(slot, now - start);
                }
            }
        }
        runs.increment();
    }

    void openWindow() {
        windowStart = System.nanoTime();
    }

    void closeWindow() {
        windowEnd = System.nanoTime();
    }

    long runs() {
        return runs.sum();
    }

    /** Handler runs of marked tasks whose mark was missing: a task ran twice, or before its mark. */
    long unmatched() {
        return unmatched.sum();
    }

    /** The sampled delays in nanoseconds, sorted; read it once every sampled task has run. */
    long[] sortedDelays() {
        int n = Math.min(sampled.get(), samples.length());
        long[] copy = new long[n];
        for (int i = 0; i < n; i++) {
            copy[i] = samples.get(i);
        }
        Arrays.sort(copy);
        return copy;
    }

    /** Waits until {@code target} handlers ran, or throws after {@code timeoutMillis}. */
    void awaitRuns(long target, long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (runs() < target) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException(
                        "Only " + runs() + " of " + target + " tasks ran within " + timeoutMillis + " ms");
            }
            Thread.sleep(1);
        }
    }
}
