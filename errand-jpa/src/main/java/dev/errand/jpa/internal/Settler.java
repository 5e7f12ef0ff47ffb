package dev.errand.jpa.internal;

import dev.errand.jpa.queue.EntityQueueDefinition;
import dev.errand.jpa.queue.FinalFailure;
import dev.errand.jpa.spi.EntityTransactions;
import dev.errand.retry.Delays;
import dev.errand.task.FailureCause;
import jakarta.persistence.CacheRetrieveMode;
import jakarta.persistence.EntityManager;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides and writes what follows a failed attempt: a retry after the policy's delay while attempts are
 * left, else the final failure with the queue's callback, in the transaction that marks the item failed.
 * A callback that throws rolls that transaction back; the item is then marked failed in a new one, with
 * the callback's error added.
 */
final class Settler<E> {

    private static final Logger log = LoggerFactory.getLogger(Settler.class);
    private static final Duration FALLBACK_DELAY = Duration.ofMinutes(1);

    /** What became of a failed attempt. */
    enum Outcome {
        RETRIED,
        FAILED,
        /** The attempt no longer held the item: it was rescued elsewhere, or the entity was deleted. */
        GONE
    }

    private final EntityQueueDefinition<E> definition;
    private final QueueStore store;
    private final EntityTransactions transactions;
    private final NodeConfig node;

    Settler(EntityQueueDefinition<E> definition, QueueStore store, EntityTransactions transactions, NodeConfig node) {
        this.definition = definition;
        this.store = store;
        this.transactions = transactions;
        this.node = node;
    }

    /** Records a failed attempt in transactions of its own, fenced by the attempt's lease token. */
    Outcome recordFailure(ClaimedItem item, FailureCause cause, String error) throws Exception {
        try {
            return transactions.inTransaction(em -> {
                Optional<Integer> attempts = store.lock(em, item.id(), item.token());
                if (attempts.isEmpty()) {
                    return Outcome.GONE;
                }
                return settleLocked(em, item, attempts.get(), cause, error);
            });
        } catch (CallbackFailed failed) {
            return failWithoutCallback(item, failed);
        }
    }

    /**
     * Settles an item the caller's transaction has locked with its lease token.
     *
     * @throws CallbackFailed if the final-failure callback threw; roll back and call
     *     {@link #failWithoutCallback}
     */
    Outcome settleLocked(EntityManager em, ClaimedItem item, int attempts, FailureCause cause, String error) {
        String stored = ErrorText.storable(error);
        if (attempts < definition.maxAttempts()) {
            long delay = NodeConfig.micros(delayAfter(attempts));
            store.retry(em, item.id(), item.token(), stored, node.offsetMicros(), delay);
            return Outcome.RETRIED;
        }
        if (definition.finalFailureCallback() != null) {
            E entity = em.find(definition.entityType(), item.id(), bypassCache());
            try {
                definition
                        .finalFailureCallback()
                        .onFinalFailure(
                                entity, new FinalFailure(definition.name(), item.id(), attempts, stored, cause));
                em.flush();
            } catch (Throwable callbackError) {
                throw new CallbackFailed(stored, callbackError);
            }
        }
        store.fail(em, item.id(), item.token(), stored);
        return Outcome.FAILED;
    }

    /** Marks the item failed after its callback threw, with the callback's error added. */
    Outcome failWithoutCallback(ClaimedItem item, CallbackFailed failed) throws Exception {
        log.error(
                "The final-failure callback of queue {} threw for item {}; the item is marked FAILED without it",
                definition.name(),
                item.id(),
                failed.getCause());
        String error = failed.error + "; the final-failure callback threw " + ErrorText.of(failed.getCause());
        return transactions.inTransaction(em -> {
            if (store.lock(em, item.id(), item.token()).isEmpty()) {
                return Outcome.GONE;
            }
            store.fail(em, item.id(), item.token(), ErrorText.storable(error));
            return Outcome.FAILED;
        });
    }

    private Duration delayAfter(int attempts) {
        Duration delay;
        try {
            delay = definition.retryPolicy().delayAfter(attempts);
        } catch (RuntimeException e) {
            log.warn(
                    "The retry policy of queue {} threw after attempt {}: {}; retrying in {}",
                    definition.name(),
                    attempts,
                    ErrorText.of(e),
                    FALLBACK_DELAY);
            return FALLBACK_DELAY;
        }
        if (delay == null || delay.isNegative()) {
            log.warn(
                    "The retry policy of queue {} gave {} after attempt {}; retrying in {}",
                    definition.name(),
                    delay,
                    attempts,
                    FALLBACK_DELAY);
            return FALLBACK_DELAY;
        }
        return delay.compareTo(Delays.MAX) > 0 ? Delays.MAX : delay;
    }

    /** Reads the entity from the database, not from a second-level cache that may hold an older state. */
    static Map<String, Object> bypassCache() {
        return Map.of("jakarta.persistence.cache.retrieveMode", CacheRetrieveMode.BYPASS);
    }

    /** The final-failure callback threw; the transaction must roll back. */
    static final class CallbackFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private final String error;

        CallbackFailed(String error, Throwable cause) {
            super("The final-failure callback threw", cause);
            this.error = error;
        }
    }
}
