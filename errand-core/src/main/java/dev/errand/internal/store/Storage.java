package dev.errand.internal.store;

import dev.errand.spi.DatabaseClock;
import dev.errand.spi.TransactionRunner;
import javax.sql.DataSource;

/**
 * Errand's access to its task table: its own short transactions, the host's transactions that
 * handlers and failure callbacks run in, the statements on the task table and its cancel requests,
 * and the clock whose offset every statement binds. The capabilities' own tables (workflows, events,
 * schedules, the history, the cluster, processes) have their statements in their own packages.
 *
 * @param transactions Errand's own transactions
 * @param hostTransactions the transactions of transactional handlers and failure callbacks
 * @param tasks the statements on the task table
 * @param cancels the statements on the cancel requests
 * @param clock the clock
 */
public record Storage(
        Transactions transactions,
        TransactionRunner hostTransactions,
        TaskStore tasks,
        CancelRequests cancels,
        DatabaseClock clock) {

    /** The clock's offset in microseconds, to bind where SQL means "now". */
    public long offsetMicros() {
        return Micros.of(clock.offset());
    }

    /** The DataSource every connection comes from. */
    public DataSource dataSource() {
        return transactions.dataSource();
    }

    /** The inserts of new tasks. */
    public TaskInserter inserter() {
        return tasks.inserter();
    }

    /** The dialect. */
    public Dialect dialect() {
        return tasks.dialect();
    }
}
