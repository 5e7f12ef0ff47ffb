package dev.errand.internal.wakeup;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * A coalescing wake-up for one queue's poller: any number of signals before the poller looks
 * collapse into one wake-up. This is the debounce for bursts of notifications.
 */
public final class QueueSignal {

    private final Semaphore permits = new Semaphore(0);

    /** Wakes the poller, or makes its next wait return at once. */
    public void signal() {
        if (permits.availablePermits() == 0) {
            permits.release();
        }
    }

    /**
     * Waits for a signal or the timeout.
     *
     * @return true if signalled
     */
    public boolean await(Duration timeout) throws InterruptedException {
        boolean signalled = permits.tryAcquire(timeout.toNanos(), TimeUnit.NANOSECONDS);
        permits.drainPermits();
        return signalled;
    }
}
