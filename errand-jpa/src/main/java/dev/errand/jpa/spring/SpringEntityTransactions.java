package dev.errand.jpa.spring;

import dev.errand.jpa.spi.EntityTransactions;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import org.springframework.orm.jpa.SharedEntityManagerCreator;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.ResourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Runs entity queue transactions in the application's Spring transaction manager, each as a new transaction
 * ({@code REQUIRES_NEW}). The work gets Spring's shared entity manager, which is the transaction's own, so
 * Spring Data repositories, {@code JdbcTemplate} and {@code @Transactional} services called by a processor or
 * a final-failure callback join the item's transaction and commit or roll back with it.
 */
public final class SpringEntityTransactions implements EntityTransactions {

    private final TransactionTemplate template;
    private final EntityManager entityManager;

    /**
     * Creates the runner.
     *
     * @param transactionManager a transaction manager of {@code entityManagerFactory}, such as Spring Boot's
     *     {@code JpaTransactionManager}
     * @param entityManagerFactory the factory whose entities the queues hold
     * @throws IllegalArgumentException if an argument is null, or the transaction manager manages another
     *     resource (such as a {@code DataSourceTransactionManager}, whose transactions JPA would not join)
     */
    public SpringEntityTransactions(
            PlatformTransactionManager transactionManager, EntityManagerFactory entityManagerFactory) {
        if (transactionManager == null || entityManagerFactory == null) {
            throw new IllegalArgumentException("The transaction manager and the EntityManagerFactory must not be null");
        }
        if (transactionManager instanceof ResourceTransactionManager resource
                && !sameFactory(resource.getResourceFactory(), entityManagerFactory)) {
            throw new IllegalArgumentException("Entity queues need a transaction manager of the EntityManagerFactory,"
                    + " such as a JpaTransactionManager; "
                    + transactionManager.getClass().getName() + " manages "
                    + resource.getResourceFactory() + ". Define a SpringEntityTransactions bean on a"
                    + " JpaTransactionManager of the queues' EntityManagerFactory");
        }
        this.template = new TransactionTemplate(transactionManager);
        this.template.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
        this.entityManager = SharedEntityManagerCreator.createSharedEntityManager(entityManagerFactory);
    }

    @Override
    public <T> T inTransaction(TransactionalWork<T> work) throws Exception {
        try {
            return template.execute(status -> {
                try {
                    return work.apply(entityManager);
                } catch (RuntimeException | Error e) {
                    throw e;
                } catch (Exception e) {
                    throw new CheckedFailure(e);
                }
            });
        } catch (CheckedFailure failure) {
            throw (Exception) failure.getCause();
        }
    }

    private static boolean sameFactory(Object managed, EntityManagerFactory factory) {
        if (managed == factory) {
            return true;
        }
        if (!(managed instanceof EntityManagerFactory other)) {
            return false;
        }
        try {
            // Spring Boot's factory bean and the native factory behind it are the same persistence unit.
            return other.unwrap(EntityManagerFactory.class) == factory.unwrap(EntityManagerFactory.class);
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Carries a checked exception of the work through {@link TransactionTemplate}, which rolls back on it. */
    private static final class CheckedFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CheckedFailure(Exception cause) {
            super(cause);
        }
    }
}
