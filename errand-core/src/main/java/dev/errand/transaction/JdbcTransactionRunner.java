package dev.errand.transaction;

import dev.errand.store.Jdbc;
import java.sql.Connection;
import javax.sql.DataSource;

/** {@link TransactionRunner#jdbc()}: begins, commits and rolls back on a fresh pooled connection. */
final class JdbcTransactionRunner implements TransactionRunner {

    static final JdbcTransactionRunner INSTANCE = new JdbcTransactionRunner();

    private JdbcTransactionRunner() {}

    @Override
    public <T> T inTransaction(DataSource dataSource, TransactionalWork<T> work) throws Exception {
        try (Connection connection = dataSource.getConnection()) {
            return Jdbc.inTransactionRethrowing(connection, work::apply);
        }
    }
}
