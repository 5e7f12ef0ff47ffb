package dev.errand.internal.engine;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * An attempt's execution timeout: interrupts the worker thread once it passes, unless the attempt ended
 * first. One daemon thread serves every engine in the JVM; it only ever interrupts.
 */
final class Deadline {

    private static final ScheduledThreadPoolExecutor TIMER = timer();

    private final Thread worker;
    private final ScheduledFuture<?> alarm;
    private final LongSupplier nanoTime;
    private final long endsAtNanos;
    private boolean ended;
    private boolean passed;

    private Deadline(Thread worker, Duration timeout, LongSupplier nanoTime) {
        this.worker = worker;
        this.nanoTime = nanoTime;
        this.endsAtNanos = nanoTime.getAsLong() + timeout.toNanos();
        this.alarm = TIMER.schedule(this::pass, timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Starts the clock of an attempt running on the current thread. */
    static Deadline start(Duration timeout) {
        return start(timeout, System::nanoTime);
    }

    /** The same, reading the time from {@code nanoTime}, so that a test can move it. */
    static Deadline start(Duration timeout, LongSupplier nanoTime) {
        return new Deadline(Thread.currentThread(), timeout, nanoTime);
    }

    private synchronized void pass() {
        if (!ended) {
            passed = true;
            worker.interrupt();
        }
    }

    /**
     * Ends the attempt's clock, on the worker thread, and clears an interrupt the deadline caused so that
     * the worker's next task does not see it.
     *
     * @return whether the deadline passed before the attempt ended: by the timer, or by the clock when the timer's
     *     thread had not run yet (a busy machine), so that an attempt stopped by the database's own timeout at the
     *     same moment still counts as timed out
     */
    boolean end() {
        boolean late;
        synchronized (this) {
            ended = true;
            late = passed || nanoTime.getAsLong() - endsAtNanos >= 0;
        }
        alarm.cancel(false);
        if (late) {
            Thread.interrupted();
        }
        return late;
    }

    /** Whether the deadline has passed. */
    synchronized boolean passed() {
        return passed;
    }

    private static ScheduledThreadPoolExecutor timer() {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "errand-execution-timeouts");
            thread.setDaemon(true);
            return thread;
        });
        timer.setRemoveOnCancelPolicy(true);
        return timer;
    }
}
