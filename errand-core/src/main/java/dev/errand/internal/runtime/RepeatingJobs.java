package dev.errand.internal.runtime;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs a node's background jobs (heartbeats, sweeps, chores) at a fixed delay on daemon threads, and reports
 * each run's outcome to the node's {@link Problems}, so that a job that keeps failing shows in its health.
 */
public final class RepeatingJobs {

    /** A background job; it may fail with anything, and runs again at its next interval. */
    @FunctionalInterface
    public interface Job {
        /** Does one run of the job. */
        void run() throws Exception;
    }

    private final Problems problems;

    /** @param problems where each run's failure or success is reported */
    public RepeatingJobs(Problems problems) {
        this.problems = problems;
    }

    /** A single daemon thread with this name, for jobs that must not run at the same time as each other. */
    public static ScheduledExecutorService singleThread(String name) {
        return Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Runs {@code job} on {@code executor} every {@code interval} after the previous run ends. */
    public void every(ScheduledExecutorService executor, String name, Duration interval, Job job) {
        long millis = interval.toMillis();
        executor.scheduleWithFixedDelay(
                () -> {
                    try {
                        job.run();
                        problems.succeeded(name);
                    } catch (Throwable failure) {
                        // A scheduled job that throws is never run again: nothing may escape.
                        problems.failed(name, failure);
                    }
                },
                millis,
                millis,
                TimeUnit.MILLISECONDS);
    }
}
