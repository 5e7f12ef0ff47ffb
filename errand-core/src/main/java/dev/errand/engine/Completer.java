package dev.errand.engine;

import dev.errand.ErrandSettings;
import dev.errand.store.ClaimedTask;
import dev.errand.store.Transactions;
import dev.errand.store.TaskStore;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Buffers the successes of non-transactional tasks and completes them in batches: many ids per
 * statement, flushed every few milliseconds or as soon as a batch is full. Until its batch commits a
 * task keeps its lease, so a crash before the flush means another attempt, never a lost task.
 *
 * <p>A task also keeps its place in its queue's claim budget until its batch commits: if flushes fall
 * behind, the poller claims less, instead of piling up completed tasks that are still running in the
 * database.
 */
final class Completer {

    private static final Logger log = LoggerFactory.getLogger(Completer.class);

    private final Transactions transactions;
    private final TaskStore store;
    private final ErrandSettings settings;
    private final LeaseKeeper leases;
    private final EngineStats stats;
    private final LinkedBlockingQueue<Done> buffer = new LinkedBlockingQueue<>();

    /** A success waiting for its batch, and what to call once the batch commits. */
    private record Done(ClaimedTask task, Runnable whenCompleted) {}
    private final Thread thread;
    private volatile boolean running = true;

    Completer(Transactions transactions, TaskStore store, ErrandSettings settings, LeaseKeeper leases,
            EngineStats stats) {
        this.transactions = transactions;
        this.store = store;
        this.settings = settings;
        this.leases = leases;
        this.stats = stats;
        this.thread = new Thread(this::loop, "errand-completer");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Buffers a success; {@code whenCompleted} runs once its batch is in the database (or at stop). */
    void complete(ClaimedTask task, Runnable whenCompleted) {
        buffer.add(new Done(task, whenCompleted));
    }

    private void loop() {
        List<Done> batch = new ArrayList<>(settings.completionBatchSize());
        long flushNanos = settings.completionFlushInterval().toNanos();
        while (running || !buffer.isEmpty()) {
            try {
                Done first = buffer.poll(flushNanos, TimeUnit.NANOSECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                // Let a few more completions arrive so that one statement covers them.
                long deadline = System.nanoTime() + flushNanos;
                while (batch.size() < settings.completionBatchSize()) {
                    long left = deadline - System.nanoTime();
                    Done next = left > 0 ? buffer.poll(left, TimeUnit.NANOSECONDS) : buffer.poll();
                    if (next == null) {
                        break;
                    }
                    batch.add(next);
                }
                flush(batch);
                batch.clear();
            } catch (InterruptedException e) {
                running = false;
            }
        }
    }

    private void flush(List<Done> batch) {
        long[] ids = new long[batch.size()];
        long[] tokens = new long[batch.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = batch.get(i).task().id();
            tokens[i] = batch.get(i).task().leaseToken();
        }
        long offset = TaskStore.micros(settings.clock().offset());
        try {
            int completed = transactions.runStatement("complete", c -> store.succeedAll(c, ids, tokens, offset));
            stats.recordSucceeded(completed);
            if (completed < ids.length) {
                stats.recordFencedOff(ids.length - completed);
                log.warn("{} of {} completions found their lease taken back; those tasks run again elsewhere",
                        ids.length - completed, ids.length);
            }
            for (long id : ids) {
                leases.forget(id);
            }
            batch.forEach(Completer::completed);
        } catch (SQLException e) {
            // Keep the tasks buffered: their leases stay alive and the next flush tries again.
            if (running) {
                log.error("Completing {} tasks failed; retrying: {}", ids.length, e.getMessage());
                buffer.addAll(batch);
                pause();
            } else {
                log.error("Completing {} tasks failed while stopping: {}; their leases will expire and they"
                        + " will run again", ids.length, e.getMessage());
                batch.forEach(Completer::completed);
            }
        }
    }

    private static void completed(Done done) {
        try {
            done.whenCompleted().run();
        } catch (RuntimeException e) {
            log.error("Completion callback of task {} failed", done.task().id(), e);
        }
    }

    private void pause() {
        try {
            Thread.sleep(Math.max(100, settings.completionFlushInterval().toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    /** Flushes what is buffered and stops, waiting up to {@code timeoutMillis}. */
    void stop(long timeoutMillis) {
        running = false;
        try {
            thread.join(Math.max(1, timeoutMillis));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!buffer.isEmpty()) {
            log.warn("{} completions were not flushed before stop; their leases will expire and they will"
                    + " run again", buffer.size());
            List<Done> left = new ArrayList<>();
            buffer.drainTo(left);
            left.forEach(Completer::completed);
        }
    }
}
