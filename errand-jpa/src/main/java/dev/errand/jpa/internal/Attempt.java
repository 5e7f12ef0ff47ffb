package dev.errand.jpa.internal;

import dev.errand.jpa.queue.ProcessingContext;
import jakarta.persistence.EntityManager;

/** The {@link ProcessingContext} of one attempt. */
record Attempt(String queue, Object entityId, int attempt, int maxAttempts, EntityManager entityManager)
        implements ProcessingContext {}
