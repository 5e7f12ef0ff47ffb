package dev.errand.engine;

import dev.errand.claim.ClaimRequest;
import dev.errand.store.ClaimedTask;
import dev.errand.store.TaskStore;
import dev.errand.wakeup.QueueSignal;
import java.security.SecureRandom;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One queue on this node: a poller thread that claims due tasks in one statement, and a bounded pool
 * that runs what it claimed.
 *
 * <p>Prefetch: besides one task per worker, the poller keeps up to {@code prefetch} claimed tasks
 * waiting in the pool's queue, about as many as the queue completed in the last 200 ms. Fast tasks are
 * therefore claimed in large batches (one statement for many tasks), while slow tasks are not hoarded
 * away from other nodes. Waiting tasks hold leases that the heartbeat extends, and {@code stop()}
 * releases them. The poller claims again once half of the buffer has drained; it sleeps until a
 * wake-up, a worker freeing that much room after a full claim, or the poll interval.
 */
final class QueueWorker {

    private static final Logger log = LoggerFactory.getLogger(QueueWorker.class);
    private static final SecureRandom TOKENS = new SecureRandom();

    private final Engine engine;
    private final String queue;
    private static final long RATE_WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private final int concurrency;
    private final int capacity;
    /** Claimed tasks not finished yet, counted down from {@link #capacity}. */
    private final Semaphore freeSlots;
    private final java.util.concurrent.atomic.LongAdder finished = new java.util.concurrent.atomic.LongAdder();
    private long windowStart = System.nanoTime();
    private long finishedAtWindowStart;
    private int finishedInLastWindow;
    /** Workers wake the poller when the claimed-and-unfinished count falls to this. */
    private volatile int wakeAtOutstanding;
    private final QueueSignal signal;
    private final ThreadPoolExecutor pool;
    private final Thread poller;
    private volatile boolean claiming = true;
    private volatile boolean backlog;

    QueueWorker(Engine engine, String queue, int concurrency) {
        this.engine = engine;
        this.queue = queue;
        this.concurrency = concurrency;
        this.capacity = concurrency + engine.settings.prefetch();
        this.freeSlots = new Semaphore(capacity);
        this.signal = engine.wakeUps.of(queue);
        this.pool = new ThreadPoolExecutor(concurrency, concurrency, 0, TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(), threads("errand-" + queue + "-worker-"));
        this.poller = new Thread(this::poll, "errand-" + queue + "-poller");
        this.poller.setDaemon(true);
    }

    void start() {
        poller.start();
    }

    private void poll() {
        Duration errorBackoff = Duration.ofMillis(100);
        while (claiming) {
            try {
                int buffer = bufferTarget();
                int threshold = Math.max(1, (buffer + 1) / 2);
                int room = concurrency + buffer - outstanding();
                wakeAtOutstanding = concurrency + buffer - threshold;
                if (room >= threshold) {
                    int limit = Math.min(room, engine.settings.claimBatchSize());
                    int claimed = claimAndDispatch(limit);
                    errorBackoff = Duration.ofMillis(100);
                    backlog = claimed == limit;
                    if (backlog && concurrency + bufferTarget() - outstanding() >= threshold) {
                        continue;
                    }
                }
                signal.await(engine.settings.pollInterval());
            } catch (InterruptedException e) {
                return;
            } catch (SQLException | RuntimeException e) {
                log.warn("Claiming from queue '{}' failed: {}; retrying in {} ms", queue, e.getMessage(),
                        errorBackoff.toMillis());
                sleepQuietly(errorBackoff);
                errorBackoff = errorBackoff.multipliedBy(2).compareTo(engine.settings.pollInterval()) > 0
                        ? engine.settings.pollInterval() : errorBackoff.multipliedBy(2);
            }
        }
    }

    private int outstanding() {
        return capacity - freeSlots.availablePermits();
    }

    /**
     * How many claimed tasks to keep waiting: what the queue completed in the last 200 ms, or twice what
     * it has completed so far in the current window if that is more, capped by {@code prefetch}. The
     * second term lets a node that starts (or wakes up) in front of a backlog double its claims each
     * time they finish instead of claiming one task per worker for a whole window; since it counts only
     * finished tasks, slow tasks never grow the buffer beyond what the node has shown it can run.
     */
    private int bufferTarget() {
        long now = System.nanoTime();
        if (now - windowStart >= RATE_WINDOW_NANOS) {
            long total = finished.sum();
            long elapsed = now - windowStart;
            // A long idle stretch counts as a window with its completions spread over it.
            finishedInLastWindow = (int) Math.min(Integer.MAX_VALUE,
                    (total - finishedAtWindowStart) * RATE_WINDOW_NANOS / elapsed);
            finishedAtWindowStart = total;
            windowStart = now;
        }
        long soFar = finished.sum() - finishedAtWindowStart;
        return (int) Math.min(engine.settings.prefetch(), Math.max(finishedInLastWindow, 2 * soFar));
    }

    private int claimAndDispatch(int limit) throws SQLException {
        ClaimRequest request = new ClaimRequest(queue, limit, engine.settings.nodeId(), TOKENS.nextLong(),
                TaskStore.micros(engine.settings.leaseDuration()),
                TaskStore.micros(engine.settings.clock().offset()));
        List<ClaimedTask> tasks = engine.claimStrategy.singleStatement()
                ? engine.transactions.runStatement("claim", connection -> engine.claimStrategy.claim(connection, request))
                : engine.transactions.run("claim", connection -> engine.claimStrategy.claim(connection, request));
        if (tasks.isEmpty()) {
            return 0;
        }
        engine.stats.recordClaimed(tasks.size());
        // The claim has committed: from here on an interrupt (from stop) must not strand these tasks.
        // The slots are free, since only this thread takes them, so this does not block.
        freeSlots.acquireUninterruptibly(tasks.size());
        List<ClaimedTask> rejected = new ArrayList<>();
        for (ClaimedTask task : tasks) {
            engine.leases.hold(task.id(), engine.settings.leaseDuration());
            try {
                pool.execute(new Attempt(task));
            } catch (RejectedExecutionException stopping) {
                freeSlots.release();
                rejected.add(task);
            }
        }
        engine.release(rejected);
        return tasks.size();
    }

    /** A claimed task waiting for, or running on, a worker thread. */
    private final class Attempt implements Runnable {
        final ClaimedTask task;

        Attempt(ClaimedTask task) {
            this.task = task;
        }

        private final java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();

        @Override
        public void run() {
            boolean handedToCompleter = false;
            try {
                // A non-transactional success keeps its slot until the completer's batch commits, so
                // that claims cannot run ahead of completions.
                handedToCompleter = engine.runner.run(task, this::finish);
            } catch (RuntimeException | Error e) {
                log.error("Unexpected failure running task {} ({}); its lease will expire and rescue will"
                        + " handle it", task.id(), task.kind(), e);
            } finally {
                if (!handedToCompleter) {
                    finish();
                }
            }
        }

        /** Frees the task's slot, once. */
        void finish() {
            if (!done.compareAndSet(false, true)) {
                return;
            }
            freeSlots.release();
            finished.increment();
            if (backlog && outstanding() <= wakeAtOutstanding) {
                signal.signal();
            }
        }
    }

    /** Stops claiming and waits for the poller to end. */
    void stopClaiming() {
        claiming = false;
        poller.interrupt();
        try {
            poller.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Takes back the tasks claimed but not started and stops accepting new ones. */
    List<ClaimedTask> drainUnstarted() {
        List<Runnable> queued = new ArrayList<>();
        pool.getQueue().drainTo(queued);
        pool.shutdown();
        List<ClaimedTask> unstarted = new ArrayList<>(queued.size());
        for (Runnable runnable : queued) {
            unstarted.add(((Attempt) runnable).task);
        }
        return unstarted;
    }

    /** Waits for running tasks until {@code deadlineNanos}; interrupts them if they are still running then. */
    boolean awaitRunning(long deadlineNanos) {
        try {
            if (pool.awaitTermination(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                return true;
            }
            int still = Math.min(concurrency, outstanding());
            log.warn("{} tasks of queue '{}' still running at the shutdown timeout; interrupting them."
                    + " Their leases will expire and rescue will handle them", still, queue);
            pool.shutdownNow();
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            pool.shutdownNow();
            return false;
        }
    }

    private static void sleepQuietly(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static ThreadFactory threads(String prefix) {
        AtomicInteger counter = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
