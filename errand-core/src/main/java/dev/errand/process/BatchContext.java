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
}
