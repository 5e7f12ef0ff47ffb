package dev.errand.process;

import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Starts, reads, waits for, cancels and re-runs processes. The methods without a connection run in a transaction
 * of their own.
 */
public interface ProcessAdmin {

    /**
     * Starts a process on the caller's connection, inside the caller's transaction: what it writes exists if and
     * only if that transaction commits.
     *
     * <ul>
     *   <li>From a collection, or a query with an inline mapper ({@link ProcessRequest.Builder#query(String,
     *       RowMapper, Object...)}): the process, its first turn and its batches are written in this call (a query
     *       read page by page on this connection, a chunk of batches at a time, so the caller's memory holds one
     *       page), and the process is {@link ProcessState#RUNNING} when it returns.
     *   <li>From a query without a mapper ({@link ProcessRequest.Builder#query(String, Object...)}): the call
     *       writes the process, {@link ProcessState#INITIALIZING}, with its query, parameters and a task that
     *       creates it on the cluster with the definition's row mapper, and returns at once; {@link #find} shows
     *       the creation's progress ({@link ProcessInfo#rowsRead()}, {@link ProcessInfo#batches()}).
     * </ul>
     *
     * @return the process id
     * @throws IllegalArgumentException if the connection or request is null, the process is not registered on
     *     this node (or, for a creation on the cluster, has no row mapper), the queue is not declared, the query
     *     is refused by the guard, a parameter cannot be stored, or the process id exists
     */
    String start(Connection connection, ProcessRequest<?> request);

    /**
     * Creates a process in a transaction of its own; see {@link #start(Connection, ProcessRequest)}.
     *
     * @return the process id
     */
    String start(ProcessRequest<?> request);

    /**
     * A process with the counts of each turn.
     *
     * @return empty if there is no such process
     * @throws IllegalArgumentException if the id is not a process id: blank, padded, longer than
     *     {@value ProcessRequest#MAX_ID_LENGTH} characters or holding a control character
     */
    Optional<ProcessInfo> find(String processId);

    /**
     * The most recent processes, newest first, optionally only in one state.
     *
     * @param state the state, or {@code null} for all
     * @param limit 1 to 1,000
     * @throws IllegalArgumentException if the limit is out of range
     */
    List<ProcessInfo> list(ProcessState state, int limit);

    /**
     * The batches that failed in the process's turns, with their errors, newest turn first (at most
     * {@code limit}).
     *
     * @throws IllegalArgumentException if the id is not a process id (see {@link #find}) or the limit is not 1 to
     *     10,000
     */
    List<FailedBatch> failedBatches(String processId, int limit);

    /**
     * Waits until the process has ended or the timeout passes, reading its row every 100 ms.
     *
     * @param timeout how long to wait at most; {@code ChronoUnit.FOREVER.getDuration()} waits until the process
     *     ends
     * @return the process as of the last read: ended, or still running when the timeout passed
     * @throws IllegalArgumentException if the id is not a process id (see {@link #find}), the timeout is null or
     *     negative, or there is no such process
     */
    ProcessInfo wait(String processId, Duration timeout) throws InterruptedException;

    /**
     * Cancels a running or initializing process: marks it cancelled and cancels its turn's tasks that have not
     * started; an initializing process's creation stops before its next page. Batches that run now end as they
     * end; no analysis follows.
     *
     * @return whether it was running and is now cancelled
     * @throws IllegalArgumentException if the id is not a process id (see {@link #find}) or there is no such
     *     process
     */
    boolean cancel(String processId);

    /**
     * Runs the failed batches of a failed process's last turn again, in a new turn, with their tries counted
     * from 1; the process is running again.
     *
     * @return how many batches run again; 0 if the process is not failed or its last turn has no failed batch
     * @throws IllegalArgumentException if the id is not a process id (see {@link #find}) or there is no such
     *     process
     */
    int rerunFailed(String processId);

    /**
     * Deletes an ended (succeeded, failed or cancelled) process with its turns and batches, in one transaction.
     * The tasks that ran it are not touched: they follow their own retention.
     *
     * @return whether it existed and was deleted
     * @throws IllegalArgumentException if the id is not a process id (see {@link #find}), or the process is
     *     running or initializing (cancel it first)
     */
    boolean delete(String processId);

    /**
     * Deletes every process that ended before {@code before} (on the database's clock, as
     * {@link ProcessInfo#finishedAt()} shows it), with its turns and batches: one transaction per 100 processes,
     * so that a large clean-up does not hold one long transaction. Running processes are never deleted.
     *
     * @param before the instant, from {@code 1000-01-01T00:00:00Z} to {@code 9999-12-31T23:59:59Z} (see
     *     {@link dev.errand.config.TimeLimits}); the latest deletes every ended process
     * @return how many processes were deleted
     * @throws IllegalArgumentException if {@code before} is null or outside that range
     */
    int deleteFinishedBefore(Instant before);
}
