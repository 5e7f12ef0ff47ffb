package dev.errand.jpa.internal;

import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/** Wakes a waiting poller; a wake-up that comes before the wait is not lost. */
final class Signal {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition woken = lock.newCondition();
    private boolean pending;

    void wake() {
        lock.lock();
        try {
            pending = true;
            woken.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Waits until woken or until {@code timeout} has passed. */
    void await(Duration timeout) throws InterruptedException {
        long nanos = timeout.toNanos();
        lock.lock();
        try {
            while (!pending && nanos > 0) {
                nanos = woken.awaitNanos(nanos);
            }
            pending = false;
        } finally {
            lock.unlock();
        }
    }
}
