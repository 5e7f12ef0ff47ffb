package dev.errand.internal.store;

import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * A write that rides in the statement that completes tasks, so that both are one round trip and one
 * statement: it wraps the completion ({@code DELETE} or {@code UPDATE} of the task table, without its
 * {@code RETURNING}) in a statement of its own that still returns the ids of the tasks completed. Only where
 * the dialect returns rows from writes ({@link TaskStore#returnsCompletedIds()}).
 */
public interface CompletionRider {

    /**
     * The whole statement: {@code completion} wrapped so that it returns one column, the ids of the tasks it
     * completed, and the rider's own write fed from them.
     *
     * @param completion the completion, whose parameters come first
     */
    String wrap(String completion);

    /**
     * Binds the rider's parameters, which follow the completion's.
     *
     * @param statement the wrapped statement
     * @param index the first parameter after the completion's
     */
    void bind(PreparedStatement statement, int index) throws SQLException;
}
