package dev.errand.jpa.spi;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

/**
 * Runs work in a new transaction with an entity manager of its own. Entity queues run every transaction
 * through it: claims, each item's processing, failure records, rescues. Plain JPA uses
 * {@link #resourceLocal(EntityManagerFactory)}; on Spring, {@code SpringEntityTransactions} runs them in the
 * application's {@code JpaTransactionManager}, so that repositories and {@code @Transactional} services
 * called by a processor join the item's transaction.
 */
public interface EntityTransactions {

    /**
     * Runs {@code work} in a new transaction, never in one the calling thread already has: commit if it
     * returns, roll back if it throws, and rethrow what it threw, unchanged. A failed commit throws too.
     *
     * @param work the work; it must not commit, roll back or close the entity manager
     */
    <T> T inTransaction(TransactionalWork<T> work) throws Exception;

    /**
     * Resource-local transactions of plain JPA: a new entity manager per transaction, closed afterwards.
     *
     * @throws IllegalArgumentException if the factory is null
     */
    static EntityTransactions resourceLocal(EntityManagerFactory entityManagerFactory) {
        return new ResourceLocalTransactions(entityManagerFactory);
    }

    /**
     * Work inside a transaction.
     *
     * @param <T> its result
     */
    @FunctionalInterface
    interface TransactionalWork<T> {
        /** Does the work with the transaction's entity manager. */
        T apply(EntityManager entityManager) throws Exception;
    }
}
