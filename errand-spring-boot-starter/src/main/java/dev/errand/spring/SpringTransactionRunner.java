package dev.errand.spring;

import dev.errand.spi.TransactionRunner;
import java.sql.Connection;
import java.util.Objects;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Runs Errand's transactional handler runs and failure callbacks in transactions of the application's
 * {@link PlatformTransactionManager}. The work gets the transaction's connection from
 * {@link DataSourceUtils#getConnection(DataSource)}, so {@code @Transactional} services,
 * {@code JdbcTemplate} and Spring Data JPA repositories that a handler calls join the transaction that
 * also locks and completes the task. Each call starts a new transaction
 * ({@code PROPAGATION_REQUIRES_NEW}), even on a thread that already has one.
 *
 * <p>The transaction manager must manage Errand's DataSource: a {@code DataSourceTransactionManager} on
 * it, or a {@code JpaTransactionManager} whose EntityManagerFactory uses it.
 */
public final class SpringTransactionRunner implements TransactionRunner {

    /** The status of the transaction this runner runs work in on this thread, innermost last. */
    private final ThreadLocal<TransactionStatus> current = new ThreadLocal<>();

    private final PlatformTransactionManager transactionManager;
    private final TransactionTemplate template;

    /** Creates a runner on the given transaction manager. */
    public SpringTransactionRunner(PlatformTransactionManager transactionManager) {
        this.transactionManager = Objects.requireNonNull(transactionManager, "transactionManager must not be null");
        this.template = new TransactionTemplate(transactionManager);
        template.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
        template.setName("errand-task");
    }

    /** The transaction manager this runner uses. */
    public PlatformTransactionManager transactionManager() {
        return transactionManager;
    }

    /**
     * Runs {@code work} in a new transaction. Commits if it returns; rolls back if it throws, and rethrows
     * what it threw, unchanged (checked exceptions included).
     */
    @Override
    public <T> T inTransaction(DataSource dataSource, TransactionalWork<T> work) throws Exception {
        try {
            return template.execute(status -> {
                TransactionStatus outer = current.get();
                current.set(status);
                Connection connection = DataSourceUtils.getConnection(dataSource);
                try {
                    return work.apply(connection);
                } catch (RuntimeException | Error unchecked) {
                    throw unchecked;
                } catch (Exception checked) {
                    // TransactionTemplate rolls back on unchecked exceptions only; carry the checked one out.
                    throw new CheckedWorkFailure(checked);
                } finally {
                    DataSourceUtils.releaseConnection(connection, dataSource);
                    if (outer == null) {
                        current.remove();
                    } else {
                        current.set(outer);
                    }
                }
            });
        } catch (CheckedWorkFailure failure) {
            throw failure.original;
        }
    }

    /**
     * Whether the transaction this runner runs work in on the current thread is marked rollback-only: by
     * {@code TransactionStatus.setRollbackOnly()}, or by a {@code @Transactional} method that joined it and threw.
     */
    @Override
    public boolean isRollbackOnly() {
        TransactionStatus status = current.get();
        return status != null && status.isRollbackOnly();
    }

    /** Carries a checked exception of the work through {@link TransactionTemplate}, which rolls back on it. */
    private static final class CheckedWorkFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient Exception original;

        CheckedWorkFailure(Exception original) {
            super(null, original, false, false);
            this.original = original;
        }
    }
}
