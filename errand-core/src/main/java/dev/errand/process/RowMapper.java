package dev.errand.process;

import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Maps the current row of a query's result to one item of a process.
 *
 * @param <T> the item type
 */
@FunctionalInterface
public interface RowMapper<T> {

    /** Reads the current row; do not move the cursor. */
    T map(ResultSet row) throws SQLException;
}
