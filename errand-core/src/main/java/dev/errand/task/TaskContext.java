package dev.errand.task;

import java.sql.Connection;

/** What a handler knows about the attempt it runs. */
public interface TaskContext {

    /** The task's id. */
    long taskId();

    /** The task's kind. */
    String kind();

    /** The queue the task was claimed from. */
    String queue();

    /** This attempt's number, starting at 1. */
    int attempt();

    /** The most attempts the task may have. */
    int maxAttempts();

    /** Whether this is the task's last allowed attempt. */
    default boolean isLastAttempt() {
        return attempt() >= maxAttempts();
    }

    /**
     * The connection whose transaction locks and completes this task. Write with it, and the writes
     * commit if and only if the task completes. Do not commit, roll back or close it.
     *
     * @throws IllegalStateException for a {@link ExecutionMode#NON_TRANSACTIONAL} kind, which runs
     *     outside any transaction
     */
    Connection connection();

    /**
     * Whether an operator asked to cancel this task while it runs ({@code TaskAdmin.requestCancel}). The
     * handler's thread is also interrupted. Cancellation is cooperative: a handler that stops, by
     * throwing anything, leaves the task {@code cancelled} (a transactional handler's writes roll back);
     * one that returns normally completes it as usual.
     */
    default boolean isCancelled() {
        return false;
    }

    /**
     * Writes a line to this attempt's processing log, which the attempt history keeps with the attempt
     * ({@link ProcessingLog}). Does nothing when processing logs are off.
     */
    default void log(String line) {
        // A context without a processing log keeps nothing.
    }

    /**
     * Reports how far this attempt is: {@code done} of {@code total} units, with an optional message that
     * operators see ({@code TaskAdmin.progress(id)}, the console's task page).
     *
     * <p>Throttled: the first report of an attempt is written, then at most one a second, plus always a report
     * with {@code done == total}; the reports between are skipped, so calling it in a tight loop is cheap. A
     * write goes through a connection and a short transaction of its own, never the task's transaction, so that
     * other connections see it while a transactional task still runs (and it never waits for the task's row
     * lock). It is best effort: a write that fails is logged and the handler goes on. The progress is deleted in
     * the transaction that ends the attempt.
     *
     * @param done units done, 0 to {@code total}
     * @param total units in all, at least 1
     * @param message what the handler is doing, up to 500 characters, or {@code null}
     * @throws IllegalArgumentException for a negative {@code done}, {@code done > total}, {@code total < 1} or a
     *     message too long
     * @throws IllegalStateException if the attempt has ended (the handler returned)
     */
    default void progress(long done, long total, String message) {
        TaskProgress.check(done, total, message);
    }

    /**
     * Enqueues the next step of this task's work: a continuation of {@code kind} with {@code payload}, in
     * this task's queue. It is created in the transaction that completes this task (with the handler's
     * writes for a transactional kind, with the batched completion otherwise), so it exists if and only if
     * this task succeeds, and it names this task as its predecessor ({@code TaskAdmin.chain(id)} shows the
     * whole chain). Call it several times to fan out. The request is checked now: a bad one throws here,
     * in the handler.
     *
     * @throws IllegalArgumentException if the kind is null, or the payload is not of the type this node
     *     registered for the kind or cannot be stored
     */
    default <P> void continueWith(TaskKind<P> kind, P payload) {
        throw new UnsupportedOperationException("This TaskContext does not support continuations");
    }

    /**
     * Enqueues the next step by kind name, for a kind whose handler may live on another node; see
     * {@link #continueWith(TaskKind, Object)}.
     *
     * @throws IllegalArgumentException if the kind name is blank, or the payload is of the wrong type or
     *     cannot be stored
     */
    default void continueWith(String kind, Object payload) {
        throw new UnsupportedOperationException("This TaskContext does not support continuations");
    }

    /**
     * Enqueues the next step with options, such as a delay, a priority or another queue; otherwise as
     * {@link #continueWith(TaskKind, Object)}. A delay counts from the completion of this task, on the
     * database clock.
     *
     * @throws IllegalArgumentException if the kind or the options are null, the payload is of the wrong type
     *     or cannot be stored, the queue is not declared on this node, or the run time is outside the years
     *     1000 to 9999
     */
    default <P> void continueWith(TaskKind<P> kind, P payload, ContinueOptions options) {
        throw new UnsupportedOperationException("This TaskContext does not support continuations");
    }

    /**
     * Enqueues the next step by kind name, with options; see {@link #continueWith(TaskKind, Object,
     * ContinueOptions)}.
     *
     * @throws IllegalArgumentException if the kind name is blank, the options are null, the payload is of the
     *     wrong type or cannot be stored, the queue is not declared on this node, or the run time is out of
     *     range
     */
    default void continueWith(String kind, Object payload, ContinueOptions options) {
        throw new UnsupportedOperationException("This TaskContext does not support continuations");
    }
}
