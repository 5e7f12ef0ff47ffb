package dev.errand.engine;

import dev.errand.ErrandSettings;
import dev.errand.store.AttemptError;
import dev.errand.store.ClaimedTask;
import dev.errand.store.Transactions;
import dev.errand.store.TaskStore;
import dev.errand.task.FailedTask;
import dev.errand.task.FailureCallback;
import dev.errand.task.RetryLater;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records how an attempt ended when it did not simply succeed: retry, retry later, or fail for good
 * with the failure callback. Every write is fenced by the lease token. A write that cannot reach the
 * database is logged; the lease then expires and rescue takes the task back, so nothing is lost.
 */
final class Outcomes {

    private static final Logger log = LoggerFactory.getLogger(Outcomes.class);

    private final Transactions transactions;
    private final TaskStore store;
    private final ErrandSettings settings;
    private final ErrorTexts errors;
    private final EngineStats stats;
    private static final int MAX_CONFLICTS_IN_A_ROW = 10;
    private final java.util.Map<Long, Integer> conflictsInARow = new java.util.concurrent.ConcurrentHashMap<>();

    Outcomes(Transactions transactions, TaskStore store, ErrandSettings settings, ErrorTexts errors, EngineStats stats) {
        this.transactions = transactions;
        this.store = store;
        this.settings = settings;
        this.errors = errors;
        this.stats = stats;
    }

    /** An attempt threw: retry by the kind's policy, or fail for good after the last attempt. */
    void attemptFailed(ClaimedTask task, RegisteredKind kind, Throwable error) {
        AttemptError recorded = errors.of(task, error);
        if (task.attempt() < task.maxAttempts()) {
            retry(task, kind.retryPolicy().delayAfter(task.attempt()), recorded);
        } else {
            failForGood(task, kind.definition().failureCallback(), recorded);
        }
    }

    /** The handler asked for another attempt later; the attempt's writes are already settled. */
    void retryLater(ClaimedTask task, RegisteredKind kind, RetryLater request) {
        if (task.attempt() < task.maxAttempts()) {
            retry(task, request.delay(), null);
        } else {
            failForGood(task, kind.definition().failureCallback(), errors.of(task, "Handler asked to retry later ("
                    + request.getMessage() + ") after its last attempt, " + task.attempt() + " of "
                    + task.maxAttempts()));
        }
    }

    /** Same as {@link #retryLater} on the handler's own transaction, so that its writes commit with it. */
    boolean retryLaterInTransaction(Connection connection, ClaimedTask task, RetryLater request)
            throws SQLException {
        if (task.attempt() >= task.maxAttempts()) {
            return false;
        }
        boolean written = store.retry(connection, task, request.delay(), null, offset());
        countRetry(written, task);
        return true;
    }

    /**
     * The attempt's transaction lost a deadlock or lock timeout: run it again soon, uncounted and with
     * no error recorded, after a short random pause so that the two sides do not collide again.
     */
    void lockConflict(ClaimedTask task, RegisteredKind kind, Throwable conflict) {
        int conflicts = conflictsInARow.merge(task.id(), 1, Integer::sum);
        if (conflicts > MAX_CONFLICTS_IN_A_ROW) {
            // It keeps colliding: count it as a failed attempt so that the retry policy can end it.
            conflictsInARow.remove(task.id());
            attemptFailed(task, kind, conflict);
            return;
        }
        transactions.countLockConflict("run");
        log.info("Task {} ({}) attempt {} lost a lock conflict ({}); running it again", task.id(), task.kind(),
                task.attempt(), conflict.getMessage());
        Duration pause = Duration.ofMillis(java.util.concurrent.ThreadLocalRandom.current().nextLong(10, 200));
        try {
            transactions.runStatement("requeue", c -> store.requeueUncounted(c, task, pause, offset()));
        } catch (SQLException e) {
            log.error("Could not requeue task {} after a lock conflict ({}); its lease will expire and rescue"
                    + " will retry it", task.id(), e.getMessage());
        }
    }

    /** Forgets a task's lock conflicts once its transaction committed. */
    void committed(ClaimedTask task) {
        if (!conflictsInARow.isEmpty()) {
            conflictsInARow.remove(task.id());
        }
    }

    /** This node has no handler for the task's kind: retry later (the kind may arrive with a deploy). */
    void unknownKind(ClaimedTask task) {
        AttemptError recorded = errors.of(task, "No handler is registered for kind '" + task.kind() + "' on node "
                + settings.nodeId() + "; register a TaskDefinition for it on the nodes that serve queue '"
                + task.queue() + "'");
        if (task.attempt() < task.maxAttempts()) {
            retry(task, settings.unknownKindRetryDelay(), recorded);
        } else {
            failForGood(task, null, recorded);
        }
    }

    /** Puts the task back to pending after {@code delay}, recording {@code error} if there is one. */
    void retry(ClaimedTask task, Duration delay, AttemptError error) {
        try {
            boolean written = transactions.runStatement("retry", c -> store.retry(c, task, delay, error, offset()));
            countRetry(written, task);
        } catch (SQLException e) {
            log.error("Could not schedule task {} for retry ({}); its lease will expire and rescue will retry it",
                    task.id(), e.getMessage());
        }
    }

    /**
     * Marks the task failed and runs the callback in the same transaction, so that the callback's
     * effect commits exactly once. If the callback throws, the task is still marked failed, with the
     * callback's error added.
     */
    void failForGood(ClaimedTask task, FailureCallback callback, AttemptError error) {
        boolean[] callbackRan = {false};
        try {
            // The host's transaction runner: a callback may use the host's transactional services.
            boolean written = settings.transactionRunner().inTransaction(transactions.dataSource(), c -> {
                boolean updated = store.fail(c, task, error, offset());
                if (updated && callback != null) {
                    callbackRan[0] = true;
                    callback.onFailure(new FailedTask(task.id(), task.kind(), task.queue(), task.payloadJson(),
                            task.attempt(), error.lastError()), c);
                }
                return updated;
            });
            countFailure(written, task);
        } catch (Exception callbackOrDatabase) {
            if (!callbackRan[0]) {
                log.error("Could not mark task {} failed ({}); its lease will expire and rescue will handle it",
                        task.id(), callbackOrDatabase.getMessage());
                return;
            }
            log.error("Failure callback of task {} ({}) threw; marking the task failed without it", task.id(),
                    task.kind(), callbackOrDatabase);
            AttemptError withCallback = new AttemptError(error.lastError() + "\nFailure callback failed: "
                    + ErrorTexts.summary(callbackOrDatabase), error.entryJson());
            failForGood(task, null, withCallback);
        }
    }

    private void countRetry(boolean written, ClaimedTask task) {
        if (written) {
            stats.recordRetried();
            settings.listener().retried(task.kind(), task.queue(), task.attempt());
        } else {
            fencedOff(task);
        }
    }

    private void countFailure(boolean written, ClaimedTask task) {
        if (written) {
            stats.recordFailed();
            settings.listener().failed(task.kind(), task.queue(), task.attempt());
        } else {
            fencedOff(task);
        }
    }

    private void fencedOff(ClaimedTask task) {
        stats.recordFencedOff(1);
        log.warn("Task {} ({}) attempt {} lost its lease before its outcome was written; the outcome is dropped",
                task.id(), task.kind(), task.attempt());
    }

    private long offset() {
        return TaskStore.micros(settings.clock().offset());
    }
}
