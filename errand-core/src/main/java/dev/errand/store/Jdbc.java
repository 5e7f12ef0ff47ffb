package dev.errand.store;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Small JDBC helpers: transactions on a fresh connection. */
public final class Jdbc {

    private Jdbc() {}

    /** Work on a connection that may throw {@link SQLException}. */
    @FunctionalInterface
    public interface ConnectionWork<T> {
        /** Does the work. */
        T apply(Connection connection) throws Exception;
    }

    /**
     * Runs {@code work} in one transaction on a fresh connection: commit on return, roll back on any
     * throw. The connection's auto-commit setting is restored before it goes back to the pool.
     */
    public static <T> T inTransaction(DataSource dataSource, ConnectionWork<T> work) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            return inTransaction(connection, work);
        }
    }

    /**
     * Runs {@code work} in one transaction on {@code connection}: commit on return, roll back on any
     * throw. The connection's auto-commit setting is restored afterwards.
     */
    public static <T> T inTransaction(Connection connection, ConnectionWork<T> work) throws SQLException {
        try {
            return inTransactionRethrowing(connection, work);
        } catch (Exception e) {
            throw asSqlException(e);
        }
    }

    /**
     * The same, but whatever {@code work} throws is rethrown unchanged, for callers that must see a
     * handler's own exception.
     */
    public static <T> T inTransactionRethrowing(Connection connection, ConnectionWork<T> work) throws Exception {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try {
            T result = work.apply(connection);
            connection.commit();
            return result;
        } catch (Throwable e) {
            rollbackQuietly(connection, e);
            throw e;
        } finally {
            try {
                connection.setAutoCommit(autoCommit);
            } catch (SQLException restoreFailure) {
                // The pool validates or discards the connection; the outcome above stands.
            }
        }
    }

    /** Rolls back; a rollback failure is attached to {@code cause} instead of replacing it. */
    public static void rollbackQuietly(Connection connection, Throwable cause) {
        try {
            connection.rollback();
        } catch (SQLException rollbackFailure) {
            cause.addSuppressed(rollbackFailure);
        }
    }

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
