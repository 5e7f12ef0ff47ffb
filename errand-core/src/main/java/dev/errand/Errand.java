package dev.errand;

import dev.errand.admin.TaskAdmin;
import dev.errand.claim.ClaimStrategy;
import dev.errand.claim.ClaimStrategies;
import dev.errand.engine.Engine;
import dev.errand.engine.EngineStats;
import dev.errand.engine.RegisteredKind;
import dev.errand.enqueue.Enqueuer;
import dev.errand.enqueue.TaskRequest;
import dev.errand.json.PayloadCodec;
import dev.errand.schema.SchemaMigrator;
import dev.errand.store.Dialect;
import dev.errand.store.PostgresDialect;
import dev.errand.store.TaskStore;
import dev.errand.store.Transactions;
import dev.errand.task.TaskDefinition;
import dev.errand.wakeup.PostgresNotificationListener;
import dev.errand.wakeup.WakeUps;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * One Errand node: enqueue tasks into the application's database, run them, and administer them.
 *
 * <pre>{@code
 * Errand errand = Errand.builder(dataSource)
 *         .register(TaskDefinition.builder("send-email", Email.class, (email, ctx) -> mailer.send(email))
 *                 .mode(ExecutionMode.NON_TRANSACTIONAL)
 *                 .build())
 *         .build();
 * errand.start();
 * errand.enqueue(connection, TaskRequest.of("send-email", new Email("a@example.com", "Hi")));
 * }</pre>
 *
 * <p>Thread-safe. {@link #close()} stops it gracefully.
 */
public final class Errand implements AutoCloseable {

    private final DataSource dataSource;
    private final ErrandSettings settings;
    private final Dialect dialect;
    private final Enqueuer enqueuer;
    private final TaskAdmin admin;
    private final Engine engine;
    private final WakeUps wakeUps = new WakeUps();
    private PostgresNotificationListener listener;
    private boolean running;
    private boolean stopped;

    Errand(DataSource dataSource, ErrandSettings settings, Map<String, TaskDefinition<?>> definitions,
            PayloadCodec codec, Dialect dialect, ClaimStrategies.Factory claimStrategy) {
        this.dataSource = dataSource;
        this.settings = settings;
        this.dialect = dialect;
        if (settings.migrationsEnabled()) {
            new SchemaMigrator(dataSource, settings.tablePrefix(), dialect.migrationFolder(),
                    dialect.unquotedIdentifier(settings.tablePrefix().historyTable())).migrate();
        }
        String table = settings.tablePrefix().taskTable();
        TaskStore store = new TaskStore(dialect, table, settings.succeededRetention() != null);
        Transactions transactions = new Transactions(dataSource, dialect, settings.listener());
        this.enqueuer = new Enqueuer(transactions, dialect, codec, settings, definitions, wakeUps);
        this.admin = new TaskAdmin(transactions, dialect, store, settings.clock());
        Map<String, RegisteredKind> kinds = new LinkedHashMap<>();
        definitions.forEach((kind, definition) -> kinds.put(kind, RegisteredKind.resolve(definition, settings)));
        ClaimStrategy claim = claimStrategy.create(dialect, table);
        this.engine = new Engine(new Engine.Parts(transactions, settings, store, claim, kinds, codec, wakeUps));
    }

    /** Starts configuring an Errand node on the application's DataSource. */
    public static ErrandBuilder builder(DataSource dataSource) {
        return new ErrandBuilder(dataSource);
    }

    /**
     * Starts running tasks (unless processing is turned off). Calling it again while running has no
     * further effect.
     *
     * @throws IllegalStateException after {@link #stop()}: a stopped node cannot restart; build a new one
     */
    public synchronized void start() {
        if (stopped) {
            throw new IllegalStateException("This Errand node was stopped and cannot start again;"
                    + " build a new one with Errand.builder(dataSource)");
        }
        if (running || !settings.processingEnabled()) {
            return;
        }
        if (dialect instanceof PostgresDialect) {
            listener = new PostgresNotificationListener(dataSource, Enqueuer.notificationChannel(settings), wakeUps,
                    "errand-listener");
        }
        engine.start();
        running = true;
    }

    /**
     * Stops gracefully, waiting up to the configured shutdown timeout.
     *
     * @return true if every running task finished in time
     */
    public boolean stop() {
        return stop(settings.shutdownTimeout());
    }

    /**
     * Stops gracefully: stop claiming, release claimed tasks that have not started, and wait up to
     * {@code timeout} for running ones. Tasks still running then are interrupted; their leases expire
     * and another node (or this one after a restart) rescues them.
     *
     * @return true if every running task finished in time
     */
    public synchronized boolean stop(Duration timeout) {
        if (timeout == null || timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must be zero or more, got " + timeout);
        }
        if (!running) {
            return true;
        }
        running = false;
        stopped = true;
        // Stop claiming first: closing the listener can take a receive timeout, and no poller may
        // claim new work meanwhile.
        boolean finished = engine.stop(timeout);
        if (listener != null) {
            listener.close();
            listener = null;
        }
        return finished;
    }

    /** Stops gracefully with the configured timeout. */
    @Override
    public void close() {
        stop();
    }

    /** Whether this node is running tasks. */
    public synchronized boolean isRunning() {
        return running;
    }

    /**
     * Enqueues a task on the caller's connection, inside the caller's transaction: the task exists if
     * and only if that transaction commits.
     *
     * @return the task's id, or the id of the active task that already holds the request's unique key
     * @throws IllegalArgumentException for a bad request: unknown queue, unserializable payload, null
     * @throws SQLException if the insert fails
     */
    public long enqueue(Connection connection, TaskRequest request) throws SQLException {
        return enqueuer.enqueue(connection, request);
    }

    /**
     * Enqueues a task in a transaction of its own.
     *
     * @return the task's id, or the id of the active task that already holds the request's unique key
     * @throws IllegalArgumentException for a bad request
     * @throws SQLException if the insert fails
     */
    public long enqueue(TaskRequest request) throws SQLException {
        return enqueuer.enqueue(request);
    }

    /**
     * Enqueues many tasks on the caller's connection; tasks without a unique key go in one round trip.
     *
     * @return the ids in request order
     */
    public List<Long> enqueueAll(Connection connection, List<TaskRequest> requests) throws SQLException {
        return enqueuer.enqueueAll(connection, requests);
    }

    /** Enqueues many tasks in one transaction of their own; returns the ids in request order. */
    public List<Long> enqueueAll(List<TaskRequest> requests) throws SQLException {
        return enqueuer.enqueueAll(requests);
    }

    /** Wakes this node's poller of a queue, for example right after the caller's transaction committed. */
    public void wakeUp(String queue) {
        wakeUps.wake(queue);
    }

    /** The admin API: find, list, count, cancel, retry, reschedule and delete tasks. */
    public TaskAdmin admin() {
        return admin;
    }

    /** Runs one rescue sweep now instead of waiting for the rescue interval; returns how many were rescued. */
    public int rescueExpiredLeases() {
        return engine.rescueNow();
    }

    /** How many times a deadlock or lock timeout made one of Errand's own transactions run again. */
    public long lockConflictRetries() {
        return engine.lockConflictRetries();
    }

    /** This node's counters. */
    public EngineStats stats() {
        return engine.stats();
    }

    /** The settings this node runs with. */
    public ErrandSettings settings() {
        return settings;
    }

    /** The detected database dialect's name, such as {@code postgresql} or {@code h2}. */
    public String dialectName() {
        return dialect.name();
    }
}
