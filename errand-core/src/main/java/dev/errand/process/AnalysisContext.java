package dev.errand.process;

import java.sql.Connection;

/** What an analysis knows about the process it analyses. */
public interface AnalysisContext {

    /** The process's id. */
    String processId();

    /**
     * The connection of the transaction that analyses the turn and starts the next one; the analysis's writes
     * commit together with its decision.
     */
    Connection connection();
}
