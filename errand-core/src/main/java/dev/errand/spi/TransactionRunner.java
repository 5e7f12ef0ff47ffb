package dev.errand.spi;

import java.sql.Connection;
import javax.sql.DataSource;

/**
 * Runs work in one database transaction. Errand uses it for transactional handler runs and failure
 * callbacks, so that a host framework can own those transactions: the Spring Boot starter plugs in
 * its {@code PlatformTransactionManager}, and then {@code @Transactional} services, {@code JdbcTemplate}
 * and JPA repositories called by a handler join the transaction that completes the task.
 *
 * <p>The default, {@link #jdbc()}, takes a connection from the DataSource and commits or rolls back
 * itself.
 */
public interface TransactionRunner {

    /**
     * Runs {@code work} in a new transaction: commit if it returns, roll back if it throws, and
     * rethrow what it threw, unchanged.
     *
     * @param dataSource the DataSource whose connection the work must use
     * @param work the work; it gets the transaction's connection and must not commit, roll back or
     *     close it
     */
    <T> T inTransaction(DataSource dataSource, TransactionalWork<T> work) throws Exception;

    /**
     * Whether the transaction that this runner runs work in on the current thread has been marked
     * rollback-only without an exception, so that it will roll back whatever the work returns (Spring's
     * {@code TransactionStatus.setRollbackOnly()}, or a {@code @Transactional} method that threw inside it and
     * whose exception was caught). Errand asks this after a handler returned, to count the attempt as failed
     * rather than as a success that never commits. Plain JDBC has no such mark: the default is {@code false}.
     */
    default boolean isRollbackOnly() {
        return false;
    }

    /** Plain JDBC: a fresh connection per transaction. */
    static TransactionRunner jdbc() {
        return JdbcTransactionRunner.INSTANCE;
    }

    /**
     * Work inside a transaction.
     *
     * @param <T> its result
     */
    @FunctionalInterface
    interface TransactionalWork<T> {
        /** Does the work on the transaction's connection. */
        T apply(Connection connection) throws Exception;
    }
}
