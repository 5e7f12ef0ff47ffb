package dev.errand.internal.engine;

import dev.errand.history.Attempt;
import dev.errand.history.AttemptOutcome;
import dev.errand.internal.history.AttemptHistory;
import dev.errand.internal.history.AttemptRow;
import dev.errand.internal.outcome.Ending;
import dev.errand.internal.store.Storage;
import dev.errand.spi.ClaimedTask;
import dev.errand.task.FailureCause;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * Writes ended attempts to the attempt history, on the connection of the transaction that records each
 * attempt's outcome, so that the history row commits if and only if the outcome does. It turns a failure
 * cause into the row's error: the exception's type, message and stack trace (cut to the configured length),
 * or the kind of failure Errand saw.
 */
final class AttemptRecorder {

    private static final int MAX_MESSAGE = 4_000;

    private final Storage storage;
    private final AttemptHistory attempts;
    private final int stackTraceLimit;

    AttemptRecorder(Storage storage, AttemptHistory attempts, int stackTraceLimit) {
        this.storage = storage;
        this.attempts = attempts;
        this.stackTraceLimit = stackTraceLimit;
    }

    /** Records an attempt's end on {@code c}; {@code cause} is null for a success or a snooze. */
    void record(Connection c, ClaimedTask task, AttemptOutcome outcome, Ended ended, FailureCause cause)
            throws SQLException {
        if (attempts.enabled()) {
            attempts.record(c, new AttemptRow(task, outcome, ended.durationMicros(), error(cause), ended.logs()));
        }
    }

    /**
     * Completes a succeeded task on {@code c}, in its transaction, and records the attempt: in the same
     * statement where the history rides on the completion (PostgreSQL), else in one more.
     *
     * @return false if the task's lease was taken back, in which case nothing was written
     */
    boolean succeed(Connection c, ClaimedTask task, Ended ended) throws SQLException {
        if (attempts.ridesOnCompletion()) {
            AttemptRow row = new AttemptRow(task, AttemptOutcome.SUCCEEDED, ended.durationMicros(), null, ended.logs());
            return storage.tasks().succeed(c, task, attempts.successRider(List.of(row)));
        }
        if (!storage.tasks().succeed(c, task)) {
            return false;
        }
        record(c, task, AttemptOutcome.SUCCEEDED, ended, null);
        return true;
    }

    /** The cause of an attempt that ended with {@code ending} and was retried, for the history only. */
    static FailureCause retriedCause(Ending ending, FailureCause recorded) {
        if (recorded != null) {
            return recorded;
        }
        // A retry the handler asked for records no error on the task, but the history says why.
        return ending instanceof Ending.RetryLaterRequested later
                ? new FailureCause.RetriesExhausted(later.reason())
                : null;
    }

    private Attempt.AttemptError error(FailureCause cause) {
        if (cause == null) {
            return null;
        }
        if (cause instanceof FailureCause.HandlerFailed failed) {
            return new Attempt.AttemptError(
                    ErrorTexts.safe(failed.exceptionType()),
                    cut(failed.message(), MAX_MESSAGE),
                    failed.exception() == null || stackTraceLimit == 0
                            ? null
                            : cut(ErrorTexts.stackTrace(failed.exception()), stackTraceLimit));
        }
        return new Attempt.AttemptError(cause.getClass().getSimpleName(), cut(cause.describe(), MAX_MESSAGE), null);
    }

    private static String cut(String text, int max) {
        if (text == null) {
            return null;
        }
        String safe = ErrorTexts.safe(text);
        return safe.length() <= max ? safe : safe.substring(0, max);
    }
}
