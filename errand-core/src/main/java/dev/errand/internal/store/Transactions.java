package dev.errand.internal.store;

import dev.errand.spi.TaskListener;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Errand's own short transactions: claim, complete, retry, fail, heartbeat, release, rescue, admin.
 * Each runs on a fresh connection prepared by the dialect (MariaDB: READ COMMITTED, so that claims
 * take no gap locks). A deadlock or lock timeout rolls the transaction back and runs it again, up to
 * a few times with a short random pause; each such retry is counted and reported to the listener.
 * Nothing here runs user code, so running again is always safe.
 */
public final class Transactions {

    private static final Logger log = LoggerFactory.getLogger(Transactions.class);
    private static final int MAX_TRIES = 6;

    private final DataSource dataSource;
    private final Dialect dialect;
    private final TaskListener listener;
    private final LongAdder lockConflictRetries = new LongAdder();

    /** Creates the helper. */
    public Transactions(DataSource dataSource, Dialect dialect, TaskListener listener) {
        this.dataSource = dataSource;
        this.dialect = dialect;
        this.listener = listener;
    }

    /** The DataSource the transactions use. */
    public DataSource dataSource() {
        return dataSource;
    }

    /** Whether a failure was a deadlock or lock timeout, anywhere in its cause chain. */
    public boolean isLockConflict(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && dialect.isLockConflict(sql)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code failure}, or one of its causes, says the connection or the server went away. */
    public boolean isConnectionFailure(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && dialect.isConnectionFailure(sql)) {
                return true;
            }
        }
        return false;
    }

    /** Counts a lock conflict that was handled outside {@link #run}, such as in a handler's transaction. */
    public void countLockConflict(String operation) {
        lockConflictRetries.increment();
        listener.lockConflictRetried(operation);
    }

    /** How many times a lock conflict made a transaction run again. */
    public long lockConflictRetries() {
        return lockConflictRetries.sum();
    }

    /**
     * Runs {@code work} in one transaction, again after a lock conflict.
     *
     * @param operation a short name for logs and metrics, such as {@code claim}
     */
    public <T> T run(String operation, Jdbc.ConnectionWork<T> work) throws SQLException {
        return againAfterLockConflicts(operation, () -> once(work));
    }

    /**
     * Runs {@code work}, which must issue exactly one data-changing statement, in auto-commit mode: the
     * statement is its own transaction, which saves the round trip of a separate COMMIT. Lock conflicts
     * run it again as {@link #run} does.
     *
     * @param operation a short name for logs and metrics, such as {@code complete}
     */
    public <T> T runStatement(String operation, Jdbc.ConnectionWork<T> work) throws SQLException {
        return againAfterLockConflicts(operation, () -> onceAutoCommit(work));
    }

    /** One try of a transaction. */
    @FunctionalInterface
    private interface Try<T> {
        T call() throws SQLException;
    }

    private <T> T againAfterLockConflicts(String operation, Try<T> once) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                return once.call();
            } catch (SQLException e) {
                if (attempt >= MAX_TRIES || !dialect.isLockConflict(e)) {
                    throw e;
                }
                lockConflictRetries.increment();
                listener.lockConflictRetried(operation);
                log.debug(
                        "{} hit a lock conflict ({}); running it again (try {} of {})",
                        operation,
                        e.getMessage(),
                        attempt + 1,
                        MAX_TRIES);
                pause(attempt);
            }
        }
    }

    private <T> T onceAutoCommit(Jdbc.ConnectionWork<T> work) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            int prepared = dialect.prepareConnection(connection);
            boolean autoCommit = connection.getAutoCommit();
            try {
                if (!autoCommit) {
                    connection.setAutoCommit(true);
                }
                return work.apply(connection);
            } catch (Exception e) {
                throw Jdbc.asSqlException(e);
            } finally {
                restore(connection, prepared, autoCommit ? null : Boolean.FALSE);
            }
        }
    }

    private <T> T once(Jdbc.ConnectionWork<T> work) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            int prepared = dialect.prepareConnection(connection);
            try {
                return Jdbc.inTransaction(connection, work);
            } finally {
                restore(connection, prepared, null);
            }
        }
    }

    /**
     * Puts a connection back as it was before it goes back to its pool. A connection that broke is not
     * restored, and its failure must not hide the one that broke it: the pool discards it anyway.
     */
    private void restore(Connection connection, int prepared, Boolean autoCommit) throws SQLException {
        if (connection.isClosed()) {
            return;
        }
        try {
            if (autoCommit != null) {
                connection.setAutoCommit(autoCommit);
            }
            dialect.restoreConnection(connection, prepared);
        } catch (SQLException e) {
            if (!isConnectionFailure(e) && !connection.isClosed()) {
                throw e;
            }
        }
    }

    private static void pause(int attempt) throws SQLException {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(1, 10L * attempt + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("Interrupted while waiting to retry after a lock conflict", e);
        }
    }
}
