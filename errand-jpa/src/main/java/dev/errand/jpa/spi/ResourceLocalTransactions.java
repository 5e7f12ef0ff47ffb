package dev.errand.jpa.spi;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.EntityTransaction;

/** {@link EntityTransactions#resourceLocal}: begins and ends {@link EntityTransaction}s itself. */
final class ResourceLocalTransactions implements EntityTransactions {

    private final EntityManagerFactory factory;

    ResourceLocalTransactions(EntityManagerFactory factory) {
        if (factory == null) {
            throw new IllegalArgumentException("The EntityManagerFactory must not be null");
        }
        this.factory = factory;
    }

    @Override
    public <T> T inTransaction(TransactionalWork<T> work) throws Exception {
        try (EntityManager entityManager = factory.createEntityManager()) {
            EntityTransaction transaction = entityManager.getTransaction();
            transaction.begin();
            T result;
            try {
                result = work.apply(entityManager);
            } catch (Throwable failure) {
                try {
                    if (transaction.isActive()) {
                        transaction.rollback();
                    }
                } catch (RuntimeException rollbackFailure) {
                    failure.addSuppressed(rollbackFailure);
                }
                throw failure;
            }
            transaction.commit();
            return result;
        }
    }
}
