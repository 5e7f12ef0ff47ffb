package dev.errand.scripting.internal;

import dev.errand.error.ErrandException;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Runs work in a transaction of its own on a connection of the DataSource. */
public final class Jdbc {

    /**
     * Work on a connection.
     *
     * @param <T> what it returns
     */
    @FunctionalInterface
    public interface Work<T> {
        /** Does the work. */
        T run(Connection connection) throws SQLException;
    }

    private final DataSource dataSource;

    /** Creates the runner. */
    public Jdbc(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * Runs {@code work} in a transaction of its own and commits it.
     *
     * @throws ErrandException naming {@code operation} if the database fails; nothing was written
     */
    public <T> T inTransaction(String operation, Work<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(false);
            try {
                T result = work.run(connection);
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                rollBack(connection, e);
                throw e;
            } finally {
                connection.setAutoCommit(autoCommit);
            }
        } catch (SQLException e) {
            throw new ErrandException(operation, e);
        }
    }

    private static void rollBack(Connection connection, Exception failure) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            failure.addSuppressed(e);
        }
    }
}
