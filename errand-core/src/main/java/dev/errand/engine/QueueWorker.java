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
 * One queue on this node: a poller thread that claims up to the free worker slots in one statement,
 * and a bounded pool that runs what it claimed. The poller sleeps until a wake-up, a freed slot after
 * a full claim, or the poll interval.
 */
final class QueueWorker {

    private static final Logger log = LoggerFactory.getLogger(QueueWorker.class);
    private static final SecureRandom TOKENS = new SecureRandom();

    private final Engine engine;
    private final String queue;
    private final int concurrency;
    private final Semaphore freeSlots;
    private final QueueSignal signal;
    private final ThreadPoolExecutor pool;
    private final Thread poller;
    private volatile boolean claiming = true;
    private volatile boolean backlog;

    QueueWorker(Engine engine, String queue, int concurrency) {
        this.engine = engine;
        this.queue = queue;
        this.concurrency = concurrency;
        this.freeSlots = new Semaphore(concurrency);
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
                int free = freeSlots.availablePermits();
                if (free > 0) {
                    int limit = Math.min(free, engine.settings.claimBatchSize());
                    int claimed = claimAndDispatch(limit);
                    errorBackoff = Duration.ofMillis(100);
                    backlog = claimed == limit;
                    if (backlog && freeSlots.availablePermits() > 0) {
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

    private int claimAndDispatch(int limit) throws SQLException {
        ClaimRequest request = new ClaimRequest(queue, limit, engine.settings.nodeId(), TOKENS.nextLong(),
                TaskStore.micros(engine.settings.leaseDuration()),
                TaskStore.micros(engine.settings.clock().offset()));
        List<ClaimedTask> tasks = engine.transactions.run("claim",
                connection -> engine.claimStrategy.claim(connection, request));
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

        @Override
        public void run() {
            try {
                engine.runner.run(task);
            } catch (RuntimeException | Error e) {
                log.error("Unexpected failure running task {} ({}); its lease will expire and rescue will"
                        + " handle it", task.id(), task.kind(), e);
            } finally {
                freeSlots.release();
                if (backlog) {
                    signal.signal();
                }
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
            int still = concurrency - freeSlots.availablePermits();
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
