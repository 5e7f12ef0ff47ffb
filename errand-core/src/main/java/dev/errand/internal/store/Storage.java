package dev.errand.internal.store;

import dev.errand.spi.DatabaseClock;
import dev.errand.spi.TransactionRunner;
import javax.sql.DataSource;

/**
 * Errand's access to its task table: its own short transactions, the host's transactions that
 * handlers and failure callbacks run in, the statements, and the clock whose offset every statement
 * binds.
 *
 * @param transactions Errand's own transactions
 * @param hostTransactions the transactions of transactional handlers and failure callbacks
 * @param tasks the statements on the task table
 * @param sideTables the statements on the tables beside it
 * @param clock the clock
 */
public record Storage(
        Transactions transactions,
        TransactionRunner hostTransactions,
        TaskStore tasks,
        SideTables sideTables,
        DatabaseClock clock) {

    /**
     * The statements on the tables beside the task table.
     *
     * @param cancels cancel requests
     * @param events conditions, premature events and event locks
     * @param attempts the attempt history
     * @param workflows continuations, dependencies and batches
     */
    public record SideTables(
            CancelRequests cancels, EventStore events, AttemptHistory attempts, WorkflowStore workflows) {}

    /** The statements of cancellation. */
    public CancelRequests cancels() {
        return sideTables.cancels();
    }

    /** The statements of the attempt history. */
    public AttemptHistory attempts() {
        return sideTables.attempts();
    }

    /** The statements of events. */
    public EventStore events() {
        return sideTables.events();
    }

    /** The statements of workflows and batches. */
    public WorkflowStore workflows() {
        return sideTables.workflows();
    }

    /** The clock's offset in microseconds, to bind where SQL means "now". */
    public long offsetMicros() {
        return Micros.of(clock.offset());
    }

    /** The DataSource every connection comes from. */
    public DataSource dataSource() {
        return transactions.dataSource();
    }

    /** The dialect. */
    public Dialect dialect() {
        return tasks.dialect();
    }
}
