package dev.errand.jpa.queue;

import jakarta.persistence.EntityManager;

/** One attempt at processing an item, as its {@link EntityProcessor} sees it. */
public interface ProcessingContext {

    /** The queue's name. */
    String queue();

    /** The entity's id. */
    Object entityId();

    /** The number of this attempt, starting at 1. */
    int attempt();

    /** The most attempts the item gets. */
    int maxAttempts();

    /** Whether a failure now fails the item for good. */
    default boolean isLastAttempt() {
        return attempt() >= maxAttempts();
    }

    /** The entity manager of the item's transaction; do not commit, roll back or close it. */
    EntityManager entityManager();
}
