package dev.errand.jpa;

import dev.errand.jpa.internal.IndexCheck;
import dev.errand.jpa.internal.QueueEngine;
import dev.errand.jpa.queue.EntityQueueDefinition;
import dev.errand.jpa.queue.QueueStats;
import dev.errand.jpa.state.QueueStatus;
import java.util.Map;

/**
 * One entity queue of a node, for its helpers: counts by status, resetting failed items, waking the poller.
 * Get it from {@link EntityQueues#queue(String, Class)}. Thread-safe.
 *
 * @param <E> the entity type
 */
public final class EntityQueue<E> {

    private final QueueEngine<E> engine;

    EntityQueue(QueueEngine<E> engine) {
        this.engine = engine;
    }

    /** The queue's name. */
    public String name() {
        return engine.name();
    }

    /** The queue's definition. */
    public EntityQueueDefinition<E> definition() {
        return engine.definition();
    }

    /**
     * Counts the items of each status, every status included (0 where there are none). Entities whose state
     * was never enqueued are not counted.
     *
     * @throws EntityQueueException if the database cannot be read
     */
    public Map<QueueStatus, Long> countByStatus() {
        try {
            return engine.countByStatus();
        } catch (Exception e) {
            throw new EntityQueueException("Could not count the items of queue " + name(), e);
        }
    }

    /**
     * Puts every {@code FAILED} item back to {@code PENDING}, due now, with no attempts counted; its
     * {@code last_error} stays until the next failure. Wakes this node's poller.
     *
     * @return how many items it reset
     * @throws EntityQueueException if the database cannot be written
     */
    public int resetFailed() {
        try {
            return engine.resetFailed();
        } catch (Exception e) {
            throw new EntityQueueException("Could not reset the failed items of queue " + name(), e);
        }
    }

    /**
     * Wakes this node's poller of the queue now. Saving an entity with the state pending does this by itself
     * when its transaction commits; other nodes find the item at their next poll.
     */
    public void wakeUp() {
        engine.wakeUp();
    }

    /** What this node did in the queue since it was built. */
    public QueueStats stats() {
        return engine.stats();
    }

    /** The SQL that creates the index claims need, for this database's table and columns. */
    public String recommendedIndex() {
        return IndexCheck.recommendedIndex(engine.store().table());
    }

    @Override
    public String toString() {
        return "EntityQueue[" + name() + "]";
    }
}
