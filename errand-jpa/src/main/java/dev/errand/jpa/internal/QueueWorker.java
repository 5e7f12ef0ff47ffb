package dev.errand.jpa.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The poller and the worker threads of one queue on one node. The poller keeps up to one batch of claimed
 * items waiting for the workers, so that the workers do not wait for a claim and a claim takes many items
 * at once: it claims again when fewer than half a batch wait, at once while claims come back full, and
 * otherwise waits for a wake-up or the poll interval. On stop, the items claimed but not started are handed
 * back. Every thread survives any {@link Throwable}.
 */
public final class QueueWorker {

    private static final Logger log = LoggerFactory.getLogger(QueueWorker.class);

    private final QueueEngine<?> engine;
    private final BlockingQueue<Runnable> waiting = new LinkedBlockingQueue<>();
    private final ThreadPoolExecutor workers;
    private final Thread poller;
    private final AtomicInteger claimed = new AtomicInteger();
    private final int concurrency;
    private final int batchSize;
    private volatile boolean running = true;
    private volatile boolean backlog;

    /** Creates the threads of one queue; {@link #start()} starts them. */
    public QueueWorker(QueueEngine<?> engine, String threadPrefix) {
        this.engine = engine;
        this.concurrency = engine.definition().concurrency();
        this.batchSize = engine.definition().batchSize();
        this.workers = new ThreadPoolExecutor(
                concurrency, concurrency, 0, TimeUnit.MILLISECONDS, waiting, named(threadPrefix + "-worker-"));
        this.poller = new Thread(this::poll, threadPrefix + "-poller");
        this.poller.setDaemon(true);
    }

    /** Starts polling. */
    public void start() {
        poller.start();
    }

    /** Claim when no more than this many items are claimed: the running ones plus half a batch waiting. */
    private int refillLevel() {
        return concurrency + batchSize / 2;
    }

    private void poll() {
        Duration interval = engine.definition().pollInterval();
        int failures = 0;
        while (running) {
            try {
                boolean more = false;
                int want = Math.min(batchSize, concurrency + batchSize - claimed.get());
                if (claimed.get() <= refillLevel() && want > 0) {
                    QueueEngine.Claim claim = engine.claim(want);
                    for (ClaimedItem item : claim.items()) {
                        claimed.incrementAndGet();
                        workers.execute(new Run(item));
                    }
                    more = claim.more();
                    backlog = more;
                }
                failures = 0;
                if (!more || claimed.get() > refillLevel()) {
                    engine.signal().await(interval);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Throwable t) {
                failures++;
                if (failures == 1 || failures % 100 == 0) {
                    log.warn("Claiming in queue {} failed ({} in a row): {}", engine.name(), failures, ErrorText.of(t));
                }
                pause(interval);
            }
        }
    }

    /**
     * Stops claiming, hands the items claimed but not started back (pending, their attempt uncounted), and
     * waits up to {@code timeout} for the items being processed. Those still running then are interrupted;
     * their transactions roll back and their leases expire into a rescue.
     *
     * @return whether every running item finished in time
     */
    public boolean stop(Duration timeout) throws InterruptedException {
        running = false;
        engine.signal().wake();
        long deadline = System.nanoTime() + timeout.toNanos();
        poller.join(Math.max(1, timeout.toMillis()));
        List<Runnable> notStarted = new ArrayList<>();
        waiting.drainTo(notStarted);
        workers.shutdown();
        release(notStarted);
        boolean finished = workers.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        if (!finished) {
            log.warn(
                    "Queue {}: items still running after {}; interrupted, they are rescued when their leases expire",
                    engine.name(),
                    timeout);
            workers.shutdownNow();
        }
        if (poller.isAlive()) {
            poller.interrupt();
        }
        return finished;
    }

    private void release(List<Runnable> notStarted) {
        List<ClaimedItem> items = new ArrayList<>();
        for (Runnable runnable : notStarted) {
            items.add(((Run) runnable).item);
        }
        claimed.addAndGet(-items.size());
        if (items.isEmpty()) {
            return;
        }
        try {
            int released = engine.release(items);
            log.info("Queue {}: handed back {} claimed items that had not started", engine.name(), released);
        } catch (Exception e) {
            log.warn(
                    "Queue {}: could not hand back {} claimed items that had not started ({}); they are rescued"
                            + " when their leases expire",
                    engine.name(),
                    items.size(),
                    ErrorText.of(e));
        }
    }

    private static void pause(Duration interval) {
        try {
            Thread.sleep(interval.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static ThreadFactory named(String prefix) {
        AtomicInteger number = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + number.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** One claimed item, waiting for a worker or running. */
    private final class Run implements Runnable {
        private final ClaimedItem item;

        Run(ClaimedItem item) {
            this.item = item;
        }

        @Override
        public void run() {
            try {
                engine.process(item);
            } catch (Throwable t) {
                log.error("Processing item {} of queue {} ended unexpectedly", item.id(), engine.name(), t);
            } finally {
                if (claimed.decrementAndGet() <= refillLevel() && backlog) {
                    engine.signal().wake();
                }
            }
        }
    }
}
