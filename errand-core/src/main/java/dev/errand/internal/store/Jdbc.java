package dev.errand.internal.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

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

    /**
     * Runs {@code work} on a caller's connection as one atomic unit: inside the caller's transaction if one is
     * open, or in a transaction of its own if the connection is in auto-commit (where each of its statements
     * would otherwise commit alone, and locks taken by one would be gone before the next).
     */
    public static <T> T atomically(Connection connection, ConnectionWork<T> work) throws SQLException {
        if (connection.getAutoCommit()) {
            return inTransaction(connection, work);
        }
        try {
            return work.apply(connection);
        } catch (Exception e) {
            throw asSqlException(e);
        }
    }

    /** Runs a query whose first column is an id, and returns the ids in row order. */
    public static long[] readIds(PreparedStatement query) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                ids.add(rows.getLong(1));
            }
        }
        return ids.stream().mapToLong(Long::longValue).toArray();
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
