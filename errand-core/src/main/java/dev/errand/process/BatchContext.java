package dev.errand.process;

import java.sql.Connection;

/** What a batch handler knows about the batch it runs. */
public interface BatchContext {

    /** The process's id. */
    String processId();

    /** The turn this batch runs in, from 1. */
    int turn();

    /** The batch's number within its process; a batch tried again in a later turn keeps its number. */
    int batchNumber();

    /** How many times this batch has run, this run included (1 the first time). */
    int tries();

    /**
     * The connection of the transaction that runs the batch. The handler's writes commit together with the
     * batch's success; when the handler throws they are rolled back and the batch is recorded as failed.
     */
    Connection connection();

    /** The largest batch result, in bytes of UTF-8 JSON. */
    int MAX_RESULT_BYTES = 16 * 1024;

    /**
     * Sets this batch's result, which its turn's analysis reads ({@link AnalysisContext#batchResults}): any value the
     * node's payload codec writes as JSON (a record, a map, a number), at most {@value #MAX_RESULT_BYTES} bytes of
     * JSON. It is stored with the batch in the transaction that records its success; a batch that fails keeps
     * none. Calling it again replaces the result; {@code null} clears it. Keep results small (counts, sums, ids
     * of what to do next): larger outputs belong in the application's own tables.
     *
     * @throws IllegalArgumentException if the value cannot be written as JSON, or its JSON is larger than {@value
     *     #MAX_RESULT_BYTES} bytes; thrown out of the handler, it fails the batch with this message
     */
    default void result(Object value) {
        throw new UnsupportedOperationException("this BatchContext keeps no result");
    }
}
