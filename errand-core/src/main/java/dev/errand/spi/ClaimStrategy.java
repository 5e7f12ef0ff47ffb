package dev.errand.spi;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * Takes due pending tasks of a queue for one node: marks them running with the node's lease, counts
 * the attempt, and returns them in priority, then {@code run_at}, order. Two nodes claiming at once
 * never get the same task. Errand ships two strategies ({@code dev.errand.ClaimStrategies}); a
 * database or proxy with other locking rules can plug in its own.
 */
public interface ClaimStrategy {

    /**
     * Claims up to {@code request.limit()} tasks inside the caller's transaction; they are the node's
     * once it commits.
     */
    List<ClaimedTask> claim(Connection connection, ClaimRequest request) throws SQLException;

    /**
     * Whether {@link #claim} issues one statement only, so that the engine may run it in auto-commit
     * mode as its own transaction instead of opening one around it.
     */
    default boolean singleStatement() {
        return false;
    }

    /** Creates the claim strategy of one node, once its database and task table are known. */
    @FunctionalInterface
    interface Factory {
        /** Creates the strategy for the table and database that {@code environment} describes. */
        ClaimStrategy create(ClaimEnvironment environment);
    }
}
