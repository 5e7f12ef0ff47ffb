package dev.errand.bench.events;

import com.zaxxer.hikari.HikariDataSource;
import dev.errand.Errand;
import dev.errand.bench.Db;
import dev.errand.bench.systems.ErrandSystem.Stamp;
import dev.errand.config.ErrandSettings;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import java.time.Duration;

/**
 * Errand on tables of its own: a client node (processing off) that enqueues and triggers, and a worker
 * node that runs the no-op kind and reports each run to the current {@link Marks}. The two are separate
 * nodes, as in the other scenarios, so the worker learns of released tasks through PostgreSQL's NOTIFY.
 */
final class EventNode implements AutoCloseable {

    /** The kind every task of these scenarios has; its payload is a {@link Stamp} holding the task's mark id. */
    static final String KIND = "noop";

    private final Db db;
    private final String prefix;
    private final int clientConnections;
    private HikariDataSource clientPool;
    private Errand client;
    private HikariDataSource workerPool;
    private Errand worker;
    private volatile Marks marks = new Marks(0);

    EventNode(Db db, String prefix, int clientConnections) {
        this.db = db;
        this.prefix = prefix;
        this.clientConnections = clientConnections;
    }

    String prefix() {
        return prefix;
    }

    /** Drops what an earlier run left and creates the tables (the client node migrates them). */
    void setUp() {
        close();
        clientPool = db.pool(prefix + "client", clientConnections);
        client = Errand.builder(clientPool)
                .tablePrefix(prefix)
                .processingEnabled(false)
                .queue(ErrandSettings.DEFAULT_QUEUE, 1)
                .build();
    }

    Errand client() {
        return client;
    }

    /** Replaces the marks that handlers report to; returns the new ones. */
    Marks newMarks(int maxSamples) {
        marks = new Marks(maxSamples);
        return marks;
    }

    /** Builds and starts the worker node. */
    void startWorkers(int concurrency) {
        stopWorkers();
        workerPool = db.pool(prefix + "worker", 2 + 6);
        worker = Errand.builder(workerPool)
                .tablePrefix(prefix)
                .migrationsEnabled(false)
                .queue(ErrandSettings.DEFAULT_QUEUE, concurrency)
                .pollInterval(Duration.ofMillis(100))
                .register(TaskDefinition.builder(KIND, Stamp.class, (stamp, ctx) -> marks.ran(stamp.t()))
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build())
                .build();
        worker.start();
    }

    void stopWorkers() {
        if (worker != null) {
            worker.stop(Duration.ofSeconds(10));
            worker = null;
        }
        if (workerPool != null) {
            workerPool.close();
            workerPool = null;
        }
    }

    /** Tasks in a state other than waiting that are not complete yet. */
    long unfinished() {
        return db.queryLong("SELECT count(*) FROM " + prefix + "task WHERE state IN ('pending', 'running')");
    }

    long count(String state) {
        return db.queryLong("SELECT count(*) FROM " + prefix + "task WHERE state = '" + state + "'");
    }

    /** Waits until no task is pending or running (completions are flushed in batches after the handler). */
    void awaitDrained(long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (unfinished() > 0) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException(prefix + "task still has " + unfinished() + " unfinished tasks");
            }
            Thread.sleep(2);
        }
    }

    /** Stops both nodes and drops every table of the prefix. */
    @Override
    public void close() {
        stopWorkers();
        if (clientPool != null) {
            clientPool.close();
            clientPool = null;
        }
        client = null;
        db.dropTablesStartingWith(prefix);
    }
}
