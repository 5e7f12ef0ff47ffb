package dev.errand.internal.engine;

import dev.errand.history.AttemptOutcome;
import dev.errand.internal.outcome.Decision;
import dev.errand.internal.outcome.Ending;
import dev.errand.internal.outcome.ErrorMessages;
import dev.errand.internal.runtime.Outage;
import dev.errand.internal.store.AttemptError;
import dev.errand.internal.store.Storage;
import dev.errand.internal.store.TaskStore;
import dev.errand.internal.workflow.Finish;
import dev.errand.internal.workflow.Finisher;
import dev.errand.spi.ClaimedTask;
import dev.errand.spi.PayloadCodec;
import dev.errand.task.FailedTask;
import dev.errand.task.FailureCallback;
import dev.errand.task.FailureCause;
import dev.errand.task.TaskState;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes what the outcome decision chose: a retry, a requeue, or a final failure with the kind's
 * failure callback. Every write is fenced by the lease token. A write that cannot reach the database
 * is logged; the lease then expires and rescue takes the task back, so nothing is lost.
 */
final class OutcomeWriter {

    private static final Logger log = LoggerFactory.getLogger(OutcomeWriter.class);

    private final Storage storage;
    private final Stores stores;
    private final ErrorTexts errors;
    private final Observers observers;
    private final PayloadCodec codec;
    private final FailureLog failureLog = new FailureLog();
    private final AttemptRecorder history;
    private final Finisher finisher;
    private final Outage outage = new Outage(
            log,
            "Writing attempt outcomes",
            "the tasks keep their state, their leases expire and rescue runs them again; further failures"
                    + " are counted until the database answers");

    private static final long INTERRUPTED_WRITE_PAUSE_MILLIS = 1_000;

    /** The end of an expiry: no handler ran. */
    private static final Ended NO_RUN = new Ended(null, null, null);

    OutcomeWriter(Stores stores, ErrorTexts errors, Observers observers, PayloadCodec codec, AttemptRecorder history) {
        this.storage = stores.storage();
        this.stores = stores;
        this.errors = errors;
        this.observers = observers;
        this.codec = codec;
        this.history = history;
        this.finisher = stores.finisher();
    }

    /** Writes a retry, requeue or failure in a transaction of its own, with the attempt's history row. */
    void write(ClaimedTask task, RegisteredKind kind, Decision decision, Ended ended) {
        if (decision instanceof Decision.Retry retry) {
            retry(task, retry, ended);
        } else if (decision instanceof Decision.Requeue requeue) {
            requeue(task, kind, requeue, ended);
        } else if (decision instanceof Decision.Cancel) {
            cancel(task, ended);
        } else if (decision instanceof Decision.Fail fail) {
            failForGood(task, kind, fail.cause(), ended);
        } else {
            throw new IllegalArgumentException("Not an outcome to write here: " + decision);
        }
    }

    /** Writes a retry on the handler's own connection, so that its writes commit with it. */
    void retryInTransaction(Connection connection, ClaimedTask task, Decision.Retry retry, Ended ended)
            throws SQLException {
        AttemptError error = retry.error() == null ? null : errors.of(task, retry.error());
        boolean written = storage.tasks().retry(connection, task, retry.delay(), error);
        if (written) {
            recordRetry(connection, task, retry, ended);
        }
        countRetry(written, task, retry);
    }

    /**
     * Completes a transactional attempt's task on its own connection, before it commits, with its history row.
     *
     * @return false if the lease was taken back
     */
    boolean succeedInTransaction(Connection connection, ClaimedTask task, Ended ended) throws SQLException {
        return history.succeed(connection, task, ended);
    }

    private void recordRetry(Connection c, ClaimedTask task, Decision.Retry retry, Ended ended) throws SQLException {
        history.record(
                c, task, AttemptOutcome.RETRIED, ended, AttemptRecorder.retriedCause(ended.ending(), retry.error()));
    }

    /**
     * Fails a task for good on the handler's own connection, so that the attempt's writes commit with the
     * failure, and runs the failure callback there too. A callback that throws is rolled back alone, to a
     * savepoint, and its error is added to the task's.
     *
     * @param finish the ending of the handler's transaction
     */
    void failInTransaction(
            Connection connection,
            Finish finish,
            ClaimedTask task,
            RegisteredKind kind,
            FailureCause cause,
            Ended ended)
            throws SQLException {
        AttemptError error = errors.of(task, cause);
        FailureCallback<Object> callback = callback(kind);
        boolean written = finish.end(connection, task, TaskState.FAILED, c -> {
            Savepoint beforeFailure = c.setSavepoint();
            boolean updated = storage.tasks().fail(c, task, error);
            if (updated && callback != null) {
                try {
                    callback.onFailure(failedTask(task, kind, error, cause), c);
                } catch (Exception | Error callbackFailed) {
                    log.error(
                            "Failure callback of task {} ({}) threw; marking the task failed without it",
                            task.id(),
                            task.kind(),
                            callbackFailed);
                    c.rollback(beforeFailure);
                    AttemptError noted =
                            errors.withNote(error, "Failure callback failed: " + ErrorMessages.summary(callbackFailed));
                    updated = storage.tasks().fail(c, task, noted);
                }
            }
            if (updated) {
                history.record(c, task, AttemptOutcome.FAILED, ended, cause);
            }
            return updated;
        });
        countFailure(written, task, cause);
    }

    private void retry(ClaimedTask task, Decision.Retry retry, Ended ended) {
        AttemptError error = retry.error() == null ? null : errors.of(task, retry.error());
        try {
            boolean written = storage.transactions().run("retry", c -> {
                boolean updated = storage.tasks().retry(c, task, retry.delay(), error);
                if (updated) {
                    recordRetry(c, task, retry, ended);
                }
                return updated;
            });
            outage.succeeded();
            countRetry(written, task, retry);
        } catch (SQLException e) {
            outage.failed("retry of task " + task.id() + " (" + task.kind() + ")", e);
        }
    }

    private void cancel(ClaimedTask task, Ended ended) {
        try (Finish finish = finisher.open()) {
            boolean written = storage.transactions().run("cancel", c -> {
                storage.cancels().forget(c, task.id());
                return finish.end(c, task, TaskState.CANCELLED, own -> {
                    boolean updated = storage.tasks().cancel(own, task);
                    if (updated) {
                        history.record(own, task, AttemptOutcome.CANCELLED, ended, null);
                    }
                    return updated;
                });
            });
            outage.succeeded();
            if (written) {
                log.info("Task {} ({}) was cancelled while it ran, as an operator asked", task.id(), task.kind());
            }
        } catch (SQLException e) {
            // Its cancel request stays, and is honoured once the task is pending again.
            outage.failed("cancel of task " + task.id() + " (" + task.kind() + ")", e);
        }
    }

    private void requeue(ClaimedTask task, RegisteredKind kind, Decision.Requeue requeue, Ended ended) {
        if (ended.ending() instanceof Ending.Interrupted interrupted) {
            long patience = kind == null ? 0 : kind.lease().toNanos();
            requeueInterrupted(task, requeue, ended, interrupted, System.nanoTime() + patience);
            return;
        }
        try {
            if (ended.ending() instanceof Ending.Snoozed) {
                // The handler ran and snoozed: the attempt is given back, but the history shows it.
                storage.transactions().run("requeue", c -> {
                    boolean updated = storage.tasks().requeueUncounted(c, task, requeue.delay());
                    if (updated) {
                        history.record(c, task, AttemptOutcome.SNOOZED, ended, null);
                    }
                    return updated;
                });
                outage.succeeded();
                return;
            }
            requeueUncounted(task, kind, requeue);
        } catch (SQLException e) {
            outage.failed("requeue of task " + task.id() + " (" + task.kind() + ")", e);
        }
    }

    /**
     * Gives back an attempt that never began (no connection) or lost a lock conflict. An attempt that got
     * no connection may be waiting out a database outage, so its write is tried again each second for up
     * to one lease, as for an interrupted one: otherwise rescue would count it as a lost worker's.
     */
    private void requeueUncounted(ClaimedTask task, RegisteredKind kind, Decision.Requeue requeue) throws SQLException {
        long deadline = System.nanoTime() + (kind == null ? 0 : kind.lease().toNanos());
        while (true) {
            try {
                storage.transactions()
                        .runStatement("requeue", c -> storage.tasks().requeueUncounted(c, task, requeue.delay()));
                outage.succeeded();
                return;
            } catch (SQLException e) {
                if (!storage.transactions().isConnectionFailure(e) || System.nanoTime() - deadline > 0 || !pause()) {
                    throw e;
                }
                outage.failed("requeue of task " + task.id() + " (" + task.kind() + ")", e);
            }
        }
    }

    /**
     * Gives back an attempt the infrastructure cut off, recording why on the row and in the history. The
     * database may be restarting, so the write is tried again each second until {@code deadlineNanos} (one
     * lease from now): if it never lands, the lease expires and rescue counts the attempt as a lost worker's.
     */
    private void requeueInterrupted(
            ClaimedTask task,
            Decision.Requeue requeue,
            Ended ended,
            Ending.Interrupted interrupted,
            long deadlineNanos) {
        FailureCause cause = interrupted.cause(null);
        String lastError = "Attempt " + task.attempt() + " was interrupted by the infrastructure and given back: "
                + cause.describe();
        while (true) {
            try {
                boolean written = storage.transactions().run("requeue", c -> {
                    boolean updated =
                            storage.tasks().requeueInterrupted(c, task, requeue.delay(), ErrorTexts.safe(lastError));
                    if (updated) {
                        history.record(c, task, AttemptOutcome.INTERRUPTED, ended, cause);
                    }
                    return updated;
                });
                outage.succeeded();
                if (written) {
                    failureLog.interrupted(task, cause);
                } else {
                    observers.stats().recordFencedOff(1);
                    log.debug(
                            "Task {} ({}) attempt {} was interrupted but not given back: its row changed meanwhile"
                                    + " (its commit landed before the connection broke, or its lease was taken"
                                    + " back), or it was given back {} times already",
                            task.id(),
                            task.kind(),
                            task.attempt(),
                            TaskStore.MAX_INTERRUPTIONS);
                }
                return;
            } catch (SQLException e) {
                if (System.nanoTime() - deadlineNanos > 0 || !pause()) {
                    outage.failed("requeue of interrupted task " + task.id() + " (" + task.kind() + ")", e);
                    return;
                }
            }
        }
    }

    private static boolean pause() {
        try {
            Thread.sleep(INTERRUPTED_WRITE_PAUSE_MILLIS);
            return true;
        } catch (InterruptedException stopping) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Marks the task failed and runs the callback in the same transaction, so that the callback's
     * effect commits exactly once. If the callback throws anything, even an {@link Error}, the task is
     * still marked failed, with the callback's error added, in a second transaction.
     */
    void failForGood(ClaimedTask task, RegisteredKind kind, FailureCause cause, Ended ended) {
        Written written = fail(
                task,
                kind,
                cause,
                (c, finish, error) -> finish.end(c, task, TaskState.FAILED, own -> {
                    boolean updated = storage.tasks().fail(own, task, error);
                    if (updated) {
                        history.record(own, task, AttemptOutcome.FAILED, ended, cause);
                    }
                    return updated;
                }));
        if (written != Written.UNKNOWN) {
            countFailure(written == Written.YES, task, cause);
        }
    }

    /**
     * Marks a task failed for good with {@code end}, which must end it through the given {@link Finish} and
     * change the row only if it is still the task's state to fail, and runs its kind's callback in the same
     * transaction; see {@link #failForGood(ClaimedTask, RegisteredKind, FailureCause, Ended)}. Both
     * transactions (the second one without the callback, if the callback threw) end the task through one
     * {@link Finish}, closed once they are over.
     *
     * @return whether the row was written, or {@link Written#UNKNOWN} if the database failed (logged)
     */
    private Written fail(ClaimedTask task, RegisteredKind kind, FailureCause cause, FailEnd end) {
        try (Finish finish = finisher.open()) {
            return fail(task, kind, cause, finish, end);
        }
    }

    private Written fail(ClaimedTask task, RegisteredKind kind, FailureCause cause, Finish finish, FailEnd end) {
        AttemptError error = errors.of(task, cause);
        FailureCallback<Object> callback = kind == null ? null : callback(kind);
        boolean[] callbackRan = {false};
        boolean written;
        try {
            written = storage.hostTransactions().inTransaction(storage.dataSource(), c -> {
                boolean updated = end.end(c, finish, error);
                if (updated && callback != null) {
                    callbackRan[0] = true;
                    callback.onFailure(failedTask(task, kind, error, cause), c);
                }
                return updated;
            });
        } catch (Throwable callbackOrDatabase) {
            if (!callbackRan[0]) {
                outage.failed("failure of task " + task.id() + " (" + task.kind() + ")", callbackOrDatabase);
                return Written.UNKNOWN;
            }
            log.error(
                    "Failure callback of task {} ({}) threw; marking the task failed without it",
                    task.id(),
                    task.kind(),
                    callbackOrDatabase);
            AttemptError noted =
                    errors.withNote(error, "Failure callback failed: " + ErrorMessages.summary(callbackOrDatabase));
            return failWithoutCallback(task, noted, finish, end);
        }
        outage.succeeded();
        return written ? Written.YES : Written.NO;
    }

    private Written failWithoutCallback(ClaimedTask task, AttemptError error, Finish finish, FailEnd end) {
        try {
            return storage.transactions().run("fail", c -> end.end(c, finish, error)) ? Written.YES : Written.NO;
        } catch (SQLException e) {
            outage.failed("failure of task " + task.id() + " (" + task.kind() + ")", e);
            return Written.UNKNOWN;
        }
    }

    /**
     * Fails a task before it ran (it expired, or its pinned node stayed away), and runs its kind's
     * callback with {@code cause}.
     *
     * @param outcome what the attempt history records for it
     * @param write the guarded statement that marks it failed
     * @return whether this node failed it
     */
    boolean failBeforeRun(
            ClaimedTask task, RegisteredKind kind, FailureCause cause, AttemptOutcome outcome, FailWrite write) {
        Written written = fail(
                task,
                kind,
                cause,
                (c, finish, error) -> finish.endBeforeRun(c, task, TaskState.FAILED, own -> {
                    if (!write.write(own, error)) {
                        return false;
                    }
                    history.record(own, task, outcome, NO_RUN, cause);
                    return true;
                }));
        if (written != Written.YES) {
            return false;
        }
        observers.stats().recordFailed();
        observers.listener().failed(task.kind(), task.queue(), task.attempt());
        failureLog.failedBeforeRun(task, cause);
        return true;
    }

    /** The end of a task's failure, through the ending of its transaction. */
    @FunctionalInterface
    private interface FailEnd {
        /** Writes the failure with {@code error} through {@code finish}; returns whether the row changed. */
        boolean end(Connection connection, Finish finish, AttemptError error) throws SQLException;
    }

    /** Whether a write of a task's failure changed its row. */
    enum Written {
        /** It did. */
        YES,
        /** The row was no longer in the state to fail (fenced off, or handled elsewhere). */
        NO,
        /** The database failed; the row is as it was. */
        UNKNOWN
    }

    /** The statement that marks a task failed, given its error, on the callback's transaction. */
    @FunctionalInterface
    interface FailWrite {
        /** Writes the failure; returns whether the row changed. */
        boolean write(Connection connection, AttemptError error) throws SQLException;
    }

    private FailedTask<Object> failedTask(
            ClaimedTask task, RegisteredKind kind, AttemptError error, FailureCause cause) {
        Object payload = null;
        if (!(cause instanceof FailureCause.UnreadablePayload)) {
            try {
                payload = codec.decode(task.payloadJson(), kind.definition().payloadType());
            } catch (RuntimeException unreadable) {
                // The callback still runs; it gets the raw JSON.
            }
        }
        return new FailedTask<>(
                task.id(),
                task.kind(),
                task.queue(),
                payload,
                task.payloadJson(),
                task.attempt(),
                error.lastError(),
                cause);
    }

    @SuppressWarnings("unchecked")
    private static FailureCallback<Object> callback(RegisteredKind kind) {
        return (FailureCallback<Object>) kind.definition().failureCallback();
    }

    private void countRetry(boolean written, ClaimedTask task, Decision.Retry retry) {
        if (!written) {
            fencedOff(task);
            return;
        }
        observers.stats().recordRetried();
        observers.listener().retried(task.kind(), task.queue(), task.attempt());
        if (retry.error() instanceof FailureCause.UnknownKind unknown) {
            failureLog.unknownKind(task, unknown.node(), retry.delay());
        } else if (retry.error() != null) {
            failureLog.retrying(task, retry.error(), retry.delay());
        }
    }

    private void countFailure(boolean written, ClaimedTask task, FailureCause cause) {
        if (!written) {
            fencedOff(task);
            return;
        }
        observers.stats().recordFailed();
        observers.listener().failed(task.kind(), task.queue(), task.attempt());
        failureLog.failed(task, cause);
    }

    private void fencedOff(ClaimedTask task) {
        observers.stats().recordFencedOff(1);
        log.warn(
                "Task {} ({}) attempt {} lost its lease before its outcome was written; the outcome is dropped",
                task.id(),
                task.kind(),
                task.attempt());
    }
}
