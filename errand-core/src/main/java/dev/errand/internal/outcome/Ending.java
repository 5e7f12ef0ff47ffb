package dev.errand.internal.outcome;

import dev.errand.task.FailureCause;
import java.time.Duration;

/** How one attempt of a task ended, as the engine saw it, before anything is decided or written. */
public sealed interface Ending {

    /** The handler returned. */
    record Succeeded() implements Ending {}

    /**
     * The handler threw.
     *
     * @param error what it threw
     */
    record Threw(Throwable error) implements Ending {}

    /**
     * The handler asked for another attempt after a delay it chose, spending this attempt.
     *
     * @param delay the delay
     * @param reason the reason it gave
     */
    record RetryLaterRequested(Duration delay, String reason) implements Ending {}

    /**
     * The handler stopped, by throwing anything, after an operator asked to cancel the task.
     *
     * @param how what the handler threw
     */
    record Cancelled(Throwable how) implements Ending {}

    /**
     * The handler snoozed: it asked to be put back for a while without spending this attempt.
     *
     * @param delay how long the task waits before it may be claimed again
     */
    record Snoozed(Duration delay) implements Ending {}

    /**
     * The attempt's transaction lost a deadlock or lock timeout: nothing is wrong with the task.
     *
     * @param conflict the database's error
     * @param inARow how many attempts of this task in a row ended like this, this one included
     */
    record LostLockConflict(Throwable conflict, int inARow) implements Ending {}

    /**
     * The attempt's transaction lost its database: the connection dropped, or the server shut down or
     * restarted. The transaction rolled back; nothing is wrong with the task.
     *
     * @param failure the database's or driver's error
     * @param inARow how many attempts of this task in a row ended like this on this node, this one included
     */
    record Interrupted(Throwable failure, int inARow) implements Ending {}

    /**
     * The attempt could not begin: its transaction got no connection (a pool smaller than the node's
     * concurrency), so the handler never ran. Nothing is wrong with the task.
     *
     * @param reason the database's or pool's error
     */
    record NotStarted(Throwable reason) implements Ending {}

    /**
     * No handler for the task's kind is registered on this node.
     *
     * @param kind the task's kind
     * @param queue the task's queue
     */
    record UnknownKind(String kind, String queue) implements Ending {}

    /**
     * The stored payload does not decode into the kind's payload type.
     *
     * @param message what the decoder said
     */
    record UnreadablePayload(String message) implements Ending {}

    /**
     * The node running the attempt stopped heartbeating and its lease expired.
     *
     * @param node the lost node
     */
    record WorkerLost(String node) implements Ending {}

    /** The cause to record when this ending fails a task, or counts as a failed attempt. */
    default FailureCause cause(String node) {
        if (this instanceof Threw threw) {
            Throwable error = threw.error();
            return new FailureCause.HandlerFailed(error.getClass().getName(), ErrorMessages.of(error), error);
        }
        if (this instanceof RetryLaterRequested later) {
            return new FailureCause.RetriesExhausted(later.reason());
        }
        if (this instanceof Interrupted interrupted) {
            Throwable error = interrupted.failure();
            return new FailureCause.HandlerFailed(error.getClass().getName(), ErrorMessages.of(error), error);
        }
        if (this instanceof LostLockConflict || this instanceof NotStarted) {
            Throwable error = this instanceof LostLockConflict lost ? lost.conflict() : ((NotStarted) this).reason();
            return new FailureCause.HandlerFailed(error.getClass().getName(), ErrorMessages.of(error), error);
        }
        if (this instanceof UnreadablePayload unreadable) {
            return new FailureCause.UnreadablePayload(unreadable.message());
        }
        if (this instanceof WorkerLost lost) {
            return new FailureCause.WorkerLost(lost.node());
        }
        if (this instanceof UnknownKind unknown) {
            return new FailureCause.UnknownKind(unknown.kind(), unknown.queue(), node);
        }
        throw new IllegalStateException("A successful, snoozed or cancelled attempt has no failure cause");
    }
}
