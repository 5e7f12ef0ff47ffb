package dev.errand.enqueue;

/**
 * What one enqueue did.
 *
 * @param id the task's id: the new task's, or that of the active task that already held the request's
 *     unique key
 * @param created true if a new task was written; false if the request was deduplicated by its unique key
 */
public record Enqueued(long id, boolean created) {

    /** Whether an active task already held the request's unique key, so nothing was written. */
    public boolean deduplicated() {
        return !created;
    }
}
