package dev.errand.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.ResultSet;
import java.time.Instant;
import java.time.OffsetDateTime;
import javax.sql.DataSource;

/** Small JDBC helpers: transactions on a fresh connection and time columns. */
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
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(false);
            try {
                T result = work.apply(connection);
                connection.commit();
                return result;
            } catch (Throwable e) {
                rollbackQuietly(connection, e);
                throw asSqlException(e);
            } finally {
                connection.setAutoCommit(autoCommit);
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

    private static SQLException asSqlException(Throwable e) {
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

    /** Reads a timestamp column as an instant, or {@code null}. */
    public static Instant instant(ResultSet row, String column) throws SQLException {
        OffsetDateTime value = row.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    /** A JDBC value for an instant bound to a timestamp-with-time-zone parameter. */
    public static OffsetDateTime toOffsetDateTime(Instant instant) {
        return instant == null ? null : OffsetDateTime.ofInstant(instant, java.time.ZoneOffset.UTC);
    }
}
