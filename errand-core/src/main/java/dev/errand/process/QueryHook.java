package dev.errand.process;

import java.sql.Connection;
import java.sql.SQLException;

/** Runs on the caller's connection before the first page of a process's query is read. */
@FunctionalInterface
public interface QueryHook {

    /** Prepares the query, for example by filling a work table or setting a session variable. */
    void beforeQuery(Connection connection) throws SQLException;
}
