package dev.errand.internal.engine;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * An attempt's execution timeout: interrupts the worker thread once it passes, unless the attempt ended
 * first. One daemon thread serves every engine in the JVM; it only ever interrupts.
 */
final class Deadline {

    private static final ScheduledThreadPoolExecutor TIMER = timer();

    private final Thread worker;
    private final ScheduledFuture<?> alarm;
    private boolean ended;
    private boolean passed;

    private Deadline(Thread worker, Duration timeout) {
        this.worker = worker;
        this.alarm = TIMER.schedule(this::pass, timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Starts the clock of an attempt running on the current thread. */
    static Deadline start(Duration timeout) {
        return new Deadline(Thread.currentThread(), timeout);
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
     * @return whether the deadline passed before the attempt ended
     */
    boolean end() {
        boolean late;
        synchronized (this) {
            ended = true;
            late = passed;
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
