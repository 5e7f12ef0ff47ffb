package dev.errand.error;

import java.sql.SQLException;

/**
 * An Errand operation could not reach or change the database: an enqueue, a trigger, an admin action.
 * It is unchecked, like Spring's {@code DataAccessException}, and carries the database's
 * {@link SQLException} as its cause.
 *
 * <p>Errand's exceptions, in one place:
 * <ul>
 *   <li>{@link IllegalArgumentException}: a bad argument, such as an undeclared queue or a blank kind;
 *       the message says what is accepted. Nothing was written.</li>
 *   <li>{@link IllegalStateException}: the node cannot do this now (it was stopped), or its settings
 *       contradict each other or the database (at build time).</li>
 *   <li>{@code ErrandException}: the database failed the operation. On the caller's connection, the
 *       caller's transaction decides what survives; on Errand's own connection, nothing was written.</li>
 * </ul>
 */
public class ErrandException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param operation what Errand was doing, such as {@code enqueue}
     * @param cause the database's failure
     */
    public ErrandException(String operation, SQLException cause) {
        super("Errand " + operation + " failed: " + cause.getMessage(), cause);
    }

    /** The database's failure. */
    @Override
    public synchronized SQLException getCause() {
        return (SQLException) super.getCause();
    }

    /** The SQL state of the database's failure, or {@code null}. */
    public String sqlState() {
        return getCause().getSQLState();
    }
}
