package dev.errand.jpa.queue;

/**
 * Runs once when an item fails for good: after its last allowed attempt, or when the node processing its
 * last attempt was lost. It runs in the transaction that marks the item {@code FAILED}, on the entity
 * loaded there, so its changes commit with that, exactly once. If it throws, that transaction rolls back,
 * the item is still marked failed in a new one, and the callback's error is added to its
 * {@code last_error}; it is not called again.
 *
 * @param <E> the entity type
 */
@FunctionalInterface
public interface FinalFailureCallback<E> {

    /**
     * Reacts to the failure.
     *
     * @param entity the failed entity, managed by the transaction that marks it failed
     * @param failure why and after how many attempts
     * @throws Exception any failure; recorded on the item
     */
    void onFinalFailure(E entity, FinalFailure failure) throws Exception;
}
