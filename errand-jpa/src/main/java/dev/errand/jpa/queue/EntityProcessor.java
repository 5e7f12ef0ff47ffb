package dev.errand.jpa.queue;

/**
 * Processes one item of an entity queue. It runs in the item's own transaction, on an entity loaded in
 * that transaction and locked for it: the entity's changes, the writes of JPA repositories and
 * {@code @Transactional} services that join it (on Spring), and the item's completion commit together.
 * If it throws, that transaction rolls back and the failure is recorded in a new one, with the next
 * attempt scheduled by the queue's retry policy.
 *
 * <p>It must not change the queue state it is processing (the node does that); it may enqueue the entity in
 * another of its queues.
 *
 * @param <E> the entity type
 */
@FunctionalInterface
public interface EntityProcessor<E> {

    /**
     * Processes the item.
     *
     * @param entity the entity, managed by {@code context.entityManager()}
     * @param context the attempt
     * @throws Exception any failure: the attempt's writes roll back and the item is retried or failed
     */
    void process(E entity, ProcessingContext context) throws Exception;
}
