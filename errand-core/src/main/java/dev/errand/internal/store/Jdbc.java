package dev.errand.internal.store;

import java.sql.Connection;
import java.sql.SQLException;

/** Small JDBC helpers for Errand's own transactions. */
public final class Jdbc {

    private Jdbc() {}

    /** Work on a connection that may throw {@link SQLException}. */
    @FunctionalInterface
    public interface ConnectionWork<T> {
        /** Does the work. */
        T apply(Connection connection) throws Exception;
    }

    /**
     * Runs {@code work} in one transaction on {@code connection}: commit on return, roll back on any
     * throw. The connection's auto-commit setting is restored afterwards.
     */
    static <T> T inTransaction(Connection connection, ConnectionWork<T> work) throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try {
            T result = work.apply(connection);
            connection.commit();
            return result;
        } catch (Throwable e) {
            try {
                connection.rollback();
            } catch (SQLException rollbackFailure) {
                e.addSuppressed(rollbackFailure);
            }
            throw asSqlException(e);
        } finally {
            try {
                connection.setAutoCommit(autoCommit);
            } catch (SQLException restoreFailure) {
                // The pool validates or discards the connection; the outcome above stands.
            }
        }
    }

    /** Rethrows unchecked throwables as they are, and wraps any other non-SQL exception. */
    static SQLException asSqlException(Throwable e) {
        if (e instanceof SQLException sql) {
            return sql;
        }
        if (e instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (e instanceof Error error) {
            throw error;
        }
        return new SQLException(e.getMessage(), e);
    }
}
