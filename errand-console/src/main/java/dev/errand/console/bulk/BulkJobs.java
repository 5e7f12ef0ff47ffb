package dev.errand.console.bulk;

import dev.errand.admin.BulkOptions;
import dev.errand.admin.BulkResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the console's bulk actions in the background, at most {@code maxRunning} at a time, on threads of its own,
 * and keeps each job's record (progress, end, error) in this node's memory: the last {@value #KEPT} ended jobs
 * and every running one.
 *
 * <p>What a node's death means: each chunk of a bulk action is a transaction of its own, so the chunks that
 * committed stay done and the rest is not done; the job's record is gone with the node. The actions act on a
 * filter and only on tasks in the states they apply to, so running the same action on the same filter again does
 * the rest. {@link #close()} (the application context's shutdown) stops running jobs after their current chunk,
 * with the same result.
 */
public final class BulkJobs implements AutoCloseable {

    /** How many ended jobs are remembered. */
    public static final int KEPT = 50;

    private static final Logger log = LoggerFactory.getLogger(BulkJobs.class);

    private final int maxRunning;
    private final ExecutorService executor;
    private final Map<String, BulkJob> jobs = new LinkedHashMap<>();

    /**
     * Creates the runner and its threads (made when needed, up to {@code maxRunning}).
     *
     * @throws IllegalArgumentException unless {@code maxRunning} is 1 to 16
     */
    public BulkJobs(int maxRunning) {
        if (maxRunning < 1 || maxRunning > 16) {
            throw new IllegalArgumentException(
                    "errand.console.bulk-jobs must be between 1 and 16 (bulk actions at a time), got " + maxRunning);
        }
        this.maxRunning = maxRunning;
        AtomicInteger threads = new AtomicInteger();
        ThreadFactory factory = runnable -> {
            Thread thread = new Thread(runnable, "errand-console-bulk-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
        ThreadPoolExecutor pool = new ThreadPoolExecutor(
                maxRunning, maxRunning, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), factory);
        pool.allowCoreThreadTimeOut(true);
        this.executor = pool;
    }

    /** The most jobs that run at a time. */
    public int maxRunning() {
        return maxRunning;
    }

    /**
     * Starts a bulk action in the background and returns its job at once. The job first counts its tasks with
     * {@code count}, then runs {@code work} with {@code options} and a progress listener added to them.
     *
     * @param action the action's name, such as {@code retry}
     * @param startedBy the user who confirmed it
     * @param options the chunk size and bounds ({@link BulkOptions#upToId(long)}: the set confirmed)
     * @param count counts the tasks of the filter up to the confirmed id
     * @param work runs the action with the options it is given
     * @throws BusyException if {@link #maxRunning()} jobs are running already
     * @throws IllegalArgumentException if {@code action}, {@code options}, {@code count} or {@code work} is null
     */
    public BulkJob start(
            String action,
            String startedBy,
            BulkOptions options,
            LongSupplier count,
            Function<BulkOptions, BulkResult> work) {
        if (action == null || options == null || count == null || work == null) {
            throw new IllegalArgumentException("a bulk job needs its action's name, its BulkOptions (with upToId),"
                    + " how to count its tasks and the work; none may be null");
        }
        BulkJob job = new BulkJob(UUID.randomUUID().toString(), action, startedBy, options.upToId());
        return start(job, options, count, work);
    }

    private synchronized BulkJob start(
            BulkJob job, BulkOptions options, LongSupplier count, Function<BulkOptions, BulkResult> work) {
        if (running() >= maxRunning) {
            throw new BusyException("The most bulk actions at a time (" + maxRunning + ", errand.console.bulk-jobs)"
                    + " are running on this node; wait for one to end (GET <path>/api/bulk-jobs) and start it again");
        }
        jobs.put(job.id(), job);
        forgetOldest();
        try {
            executor.execute(() -> run(job, options, count, work));
        } catch (java.util.concurrent.RejectedExecutionException stopped) {
            job.failed("The node is shutting down; nothing was done");
            throw new BusyException("The node is shutting down; start the bulk action on another node");
        }
        return job;
    }

    private void run(BulkJob job, BulkOptions options, LongSupplier count, Function<BulkOptions, BulkResult> work) {
        try {
            job.counted(count.getAsLong());
            BulkResult result = work.apply(options.onProgress(done -> {
                job.progressed(done);
                // Between chunks: a stop (the node shutting down) leaves the committed chunks done.
                if (Thread.currentThread().isInterrupted()) {
                    throw new CancellationException("the node stopped it after " + done.matched() + " tasks");
                }
            }));
            job.finished(result);
        } catch (CancellationException stopped) {
            job.failed("Stopped: " + stopped.getMessage() + "; the rest is not done, run it again to do it");
        } catch (RuntimeException e) {
            // The action's name and the database's message; never a payload.
            log.warn("Errand console: bulk {} {} failed: {}", job.action(), job.id(), e.getMessage(), e);
            job.failed(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    /** The job with this id, running or among the last ended ones. */
    public synchronized Optional<BulkJob> find(String id) {
        return Optional.ofNullable(jobs.get(id));
    }

    /** Every job remembered, newest first. */
    public synchronized List<BulkJob> list() {
        List<BulkJob> all = new ArrayList<>(jobs.values());
        all.sort(Comparator.comparing(BulkJob::startedAt).reversed());
        return all;
    }

    private int running() {
        return (int) jobs.values().stream()
                .filter(job -> job.state() == BulkJob.State.RUNNING)
                .count();
    }

    private void forgetOldest() {
        List<String> ended = new ArrayList<>();
        jobs.values().stream()
                .filter(job -> job.state() != BulkJob.State.RUNNING)
                .forEach(job -> ended.add(job.id()));
        for (int i = 0; i < ended.size() - KEPT; i++) {
            jobs.remove(ended.get(i));
        }
    }

    /** Stops running jobs after their current chunk and waits a little for them; called at the context's close. */
    @Override
    public void close() {
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
                log.warn("Errand console: a bulk action did not stop within 10 s of the shutdown");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Refused: too many bulk actions are running, or the node is stopping. */
    public static final class BusyException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BusyException(String message) {
            super(message, null, false, false);
        }
    }
}
