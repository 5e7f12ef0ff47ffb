package dev.errand.batch;

/**
 * One callback of a batch: declared when the batch was enqueued, and fired or not.
 *
 * @param firedTaskId the id of the task it created when it fired, or {@code null} if it has not fired
 */
public record CallbackState(Long firedTaskId) {

    /** Whether it fired. */
    public boolean fired() {
        return firedTaskId != null;
    }
}
