package dev.errand.internal.engine;

import dev.errand.internal.store.Storage;
import dev.errand.spi.ClaimedTask;
import dev.errand.task.TaskProgress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The progress reports of one attempt ({@code TaskContext.progress}), throttled and written in transactions of
 * their own. The first report is written, then at most one a second ({@link #INTERVAL_NANOS}), plus always a
 * report with {@code done == total}; the others are skipped, so that a handler may report from a tight loop.
 * Never the task's transaction: the write must be seen by other connections while a transactional task still
 * runs, and a table of its own means it never waits for the task row that the run holds locked.
 *
 * <p>Best effort: a write that fails is logged (once per attempt at WARN) and the handler goes on, since its
 * work matters more than the bar that shows it.
 */
final class ProgressReporter {

    private static final Logger log = LoggerFactory.getLogger(ProgressReporter.class);

    /** The shortest time between two written reports, but for the final one. */
    static final long INTERVAL_NANOS = 1_000_000_000L;

    private final Storage storage;
    private final ClaimedTask task;
    private long lastWrittenNanos;
    private boolean wroteAny;
    private long lastDone = -1;
    private long lastTotal = -1;
    private boolean failed;
    private volatile boolean closed;

    ProgressReporter(Storage storage, ClaimedTask task) {
        this.storage = storage;
        this.task = task;
    }

    /** Checks a report and writes it unless the throttle skips it. */
    synchronized void report(long done, long total, String message) {
        TaskProgress.check(done, total, message);
        if (closed) {
            throw new IllegalStateException("Task " + task.id() + " attempt " + task.attempt()
                    + " has ended; report progress only while the handler runs");
        }
        long now = System.nanoTime();
        boolean last = done == total && (done != lastDone || total != lastTotal);
        if (wroteAny && !last && now - lastWrittenNanos < INTERVAL_NANOS) {
            return;
        }
        TaskProgress progress = new TaskProgress(done, total, message, task.attempt(), null);
        try {
            // A transaction rather than one auto-committed statement: the first report is an UPDATE then an INSERT.
            storage.transactions().run("progress", c -> {
                storage.tasks().progress().write(c, task.id(), task.attempt(), progress);
                return null;
            });
        } catch (Exception e) {
            if (!failed) {
                failed = true;
                log.warn(
                        "Could not write the progress of task {} ({}); the handler goes on, and later reports try again",
                        task.id(),
                        e.getMessage());
            } else {
                log.debug("Could not write the progress of task {}", task.id(), e);
            }
            return;
        }
        wroteAny = true;
        lastWrittenNanos = now;
        lastDone = done;
        lastTotal = total;
    }

    /** The attempt's handler returned or threw: no more reports. */
    void close() {
        closed = true;
    }
}
