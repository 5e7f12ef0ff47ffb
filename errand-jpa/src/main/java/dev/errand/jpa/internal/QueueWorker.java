package dev.errand.jpa.internal;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The poller and the worker threads of one queue on one node. The poller claims only as many items as
 * there are free workers, so every claimed item starts at once and holds its row lock while it runs; it
 * claims again at once while claims come back full, and otherwise waits for a wake-up or the poll
 * interval. Every thread survives any {@link Throwable}.
 */
public final class QueueWorker {

    private static final Logger log = LoggerFactory.getLogger(QueueWorker.class);

    private final QueueEngine<?> engine;
    private final ExecutorService workers;
    private final Thread poller;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final int concurrency;
    private volatile boolean running = true;
    private volatile boolean backlog;

    /** Creates the threads of one queue; {@link #start()} starts them. */
    public QueueWorker(QueueEngine<?> engine, String threadPrefix) {
        this.engine = engine;
        this.concurrency = engine.definition().concurrency();
        this.workers = Executors.newFixedThreadPool(concurrency, named(threadPrefix + "-worker-"));
        this.poller = new Thread(this::poll, threadPrefix + "-poller");
        this.poller.setDaemon(true);
    }

    /** Starts polling. */
    public void start() {
        poller.start();
    }

    private void poll() {
        Duration interval = engine.definition().pollInterval();
        int failures = 0;
        while (running) {
            try {
                int want = Math.min(
                        concurrency - inFlight.get(), engine.definition().batchSize());
                boolean more = false;
                if (want > 0) {
                    QueueEngine.Claim claim = engine.claim(want);
                    for (ClaimedItem item : claim.items()) {
                        inFlight.incrementAndGet();
                        workers.execute(() -> run(item));
                    }
                    more = claim.more();
                    backlog = more;
                }
                failures = 0;
                if (!more || inFlight.get() >= concurrency) {
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

    private void run(ClaimedItem item) {
        try {
            engine.process(item);
        } catch (Throwable t) {
            log.error("Processing item {} of queue {} ended unexpectedly", item.id(), engine.name(), t);
        } finally {
            inFlight.decrementAndGet();
            if (backlog) {
                engine.signal().wake();
            }
        }
    }

    /**
     * Stops claiming, and waits up to {@code timeout} for the items being processed; those still running then
     * are interrupted, and their leases expire into a rescue.
     *
     * @return whether every item finished in time
     */
    public boolean stop(Duration timeout) throws InterruptedException {
        running = false;
        engine.signal().wake();
        long deadline = System.nanoTime() + timeout.toNanos();
        poller.join(Math.max(1, timeout.toMillis()));
        workers.shutdown();
        boolean finished = workers.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        if (!finished) {
            log.warn(
                    "Queue {}: {} items still running after {}; interrupted, they are rescued when their"
                            + " leases expire",
                    engine.name(),
                    inFlight.get(),
                    timeout);
            workers.shutdownNow();
        }
        if (poller.isAlive()) {
            poller.interrupt();
        }
        return finished;
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
}
