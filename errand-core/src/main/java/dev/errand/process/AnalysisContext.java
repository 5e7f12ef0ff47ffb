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

    /**
     * The results that this turn's succeeded batches set with {@link BatchContext#result}, as JSON text, by batch
     * number in ascending order; batches that set none are absent. Read from the database when called.
     */
    default java.util.SortedMap<Integer, String> batchResults() {
        return java.util.Collections.emptySortedMap();
    }

    /**
     * The same results, each read as {@code type} with the node's payload codec.
     *
     * @throws IllegalArgumentException if {@code type} is null
     * @throws dev.errand.spi.PayloadDecodingException if a result does not fit {@code type}
     */
    default <R> java.util.SortedMap<Integer, R> batchResults(Class<R> type) {
        throw new UnsupportedOperationException("this AnalysisContext reads no results");
    }
}
