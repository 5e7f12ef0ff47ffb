package dev.errand.internal.engine;

import dev.errand.spi.ClaimedTask;
import dev.errand.task.FailureCause;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the log what went wrong with tasks, besides recording it on their rows: a WARN for an attempt
 * that will be retried, an ERROR for a final failure and for a kind this node cannot run. Each line
 * names the kind, the task id and the attempt. At most 20 lines per kind and level are written each
 * minute; the next line written says how many were left out.
 */
final class FailureLog {

    private static final Logger log = LoggerFactory.getLogger("dev.errand.tasks");

    private final LogBudget budget = new LogBudget(20, TimeUnit.MINUTES.toNanos(1), System::nanoTime);
    private final LogBudget interruptions = new LogBudget(1, TimeUnit.MINUTES.toNanos(1), System::nanoTime);

    void retrying(ClaimedTask task, FailureCause cause, Duration delay) {
        long skipped = budget.take("warn:" + task.kind());
        if (skipped >= 0 && log.isWarnEnabled()) {
            log.warn(
                    "Task {} ({}) attempt {} of {} failed: {}; retrying in {}{}",
                    task.id(),
                    task.kind(),
                    task.attempt(),
                    task.maxAttempts(),
                    cause.describe(),
                    delay,
                    suppressed(skipped));
        }
    }

    void failed(ClaimedTask task, FailureCause cause) {
        long skipped = budget.take("error:" + task.kind());
        if (skipped < 0 || !log.isErrorEnabled()) {
            return;
        }
        String text = "Task " + task.id() + " (" + task.kind() + ") failed for good after attempt " + task.attempt()
                + " of " + task.maxAttempts() + ": " + cause.describe() + suppressed(skipped);
        if (cause instanceof FailureCause.HandlerFailed failed && failed.exception() != null) {
            try {
                log.error(text, failed.exception());
            } catch (RuntimeException | StackOverflowError unprintable) {
                // A throwable whose getMessage or toString throws breaks the logger's stack trace printing.
                log.error(
                        "{} (its stack trace could not be printed: {})",
                        text,
                        unprintable.getClass().getName());
            }
        } else {
            log.error(text);
        }
    }

    /**
     * An attempt the infrastructure cut off, given back: one WARN a minute across all kinds, since a
     * database restart interrupts many tasks at once and the engine recovers by itself.
     */
    void interrupted(ClaimedTask task, FailureCause cause) {
        long skipped = interruptions.take("interrupted");
        if (skipped >= 0 && log.isWarnEnabled()) {
            log.warn(
                    "Task {} ({}) attempt {} was interrupted by the infrastructure ({}); the attempt is given back"
                            + " and the task runs again{}",
                    task.id(),
                    task.kind(),
                    task.attempt(),
                    cause.describe(),
                    skipped == 0 ? "" : " (" + skipped + " more interrupted attempts in the last minute)");
        }
    }

    void failedBeforeRun(ClaimedTask task, FailureCause cause) {
        long skipped = budget.take("before-run:" + task.kind());
        if (skipped >= 0 && log.isWarnEnabled()) {
            log.warn("Task {} ({}) failed: {}{}", task.id(), task.kind(), cause.describe(), suppressed(skipped));
        }
    }

    void unknownKind(ClaimedTask task, String node, Duration delay) {
        long skipped = budget.take("unknown:" + task.kind());
        if (skipped >= 0 && log.isErrorEnabled()) {
            log.error(
                    "No handler is registered for kind '{}' on node {} (task {}, attempt {} of {}); register a"
                            + " TaskDefinition for it on the nodes that serve queue '{}'. Trying again in {}{}",
                    task.kind(),
                    node,
                    task.id(),
                    task.attempt(),
                    task.maxAttempts(),
                    task.queue(),
                    delay,
                    suppressed(skipped));
        }
    }

    private static String suppressed(long skipped) {
        return skipped == 0 ? "" : " (" + skipped + " similar lines were left out in the last minute)";
    }
}
