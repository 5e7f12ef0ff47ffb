package dev.errand.spi;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * {@link TransactionRunner#jdbc()}: begins, commits and rolls back on a fresh connection from the
 * DataSource, and restores the connection's auto-commit setting before it goes back to its pool.
 */
final class JdbcTransactionRunner implements TransactionRunner {

    static final JdbcTransactionRunner INSTANCE = new JdbcTransactionRunner();

    private JdbcTransactionRunner() {}

    @Override
    public <T> T inTransaction(DataSource dataSource, TransactionalWork<T> work) throws Exception {
        try (Connection connection = dataSource.getConnection()) {
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(false);
            try {
                T result = work.apply(connection);
                connection.commit();
                return result;
            } catch (Throwable failure) {
                try {
                    connection.rollback();
                } catch (SQLException rollbackFailure) {
                    failure.addSuppressed(rollbackFailure);
                }
                throw failure;
            } finally {
                try {
                    connection.setAutoCommit(autoCommit);
                } catch (SQLException restoreFailure) {
                    // The pool validates or discards the connection; the outcome above stands.
                }
            }
        }
    }
}
