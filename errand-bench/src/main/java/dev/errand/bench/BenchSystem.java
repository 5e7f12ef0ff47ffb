package dev.errand.bench;

/**
 * One system under test, driven the same way for every scenario: tables of its own, a batch API to
 * fill them, single and batch enqueues, and a worker node that runs no-op tasks and reports each run
 * to a {@link Probe}. Every method may block; none is called concurrently with {@link #setUp()}.
 */
public interface BenchSystem extends AutoCloseable {

    /** The name in reports, such as {@code errand} or {@code db-scheduler}. */
    String id();

    /** Drops what an earlier run left and creates this system's tables. */
    void setUp() throws Exception;

    /**
     * Connects to tables that another process set up, without changing them (worker nodes of the
     * multi-node scenario).
     */
    default void attach() throws Exception {}

    /** Inserts {@code count} due no-op tasks as fast as the system allows (set-up, not measured). */
    void prefill(int count) throws Exception;

    /** Enqueues one due task in a transaction of its own; {@code stamp} goes into the payload. */
    void enqueueOne(long stamp) throws Exception;

    /** Enqueues {@code count} due tasks in one transaction with the system's batch API. */
    void enqueueBatch(int count) throws Exception;

    /** Builds a worker node with {@code concurrency} workers that report to {@code probe}; not started. */
    void prepareWorkers(int concurrency, Probe probe) throws Exception;

    /** Starts the node built by {@link #prepareWorkers}. */
    void startWorkers() throws Exception;

    /** Stops the node gracefully. */
    void stopWorkers() throws Exception;

    /** Tasks that are not complete yet in the database. */
    long remaining() throws Exception;

    /** The table that holds the tasks, for ANALYZE and size reports. */
    String taskTable();

    /** Drops this system's tables. */
    void tearDown() throws Exception;

    /** The version of the library under test. */
    String version();

    @Override
    void close() throws Exception;
}
