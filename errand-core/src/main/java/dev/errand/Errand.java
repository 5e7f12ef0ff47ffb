package dev.errand;

import dev.errand.admin.TaskAdmin;
import dev.errand.batch.BatchAdmin;
import dev.errand.batch.BatchRequest;
import dev.errand.batch.EnqueuedBatch;
import dev.errand.config.ErrandSettings;
import dev.errand.enqueue.Enqueued;
import dev.errand.enqueue.TaskRequest;
import dev.errand.error.ErrandException;
import dev.errand.event.EventAdmin;
import dev.errand.event.Triggered;
import dev.errand.history.HistoryAdmin;
import dev.errand.internal.admin.JdbcTaskAdmin;
import dev.errand.internal.chores.LeaderChores;
import dev.errand.internal.cluster.ClusterStore;
import dev.errand.internal.cluster.JdbcClusterAdmin;
import dev.errand.internal.cluster.NodeAgent;
import dev.errand.internal.engine.Engine;
import dev.errand.internal.engine.Kinds;
import dev.errand.internal.engine.PoolSizeCheck;
import dev.errand.internal.engine.Stores;
import dev.errand.internal.enqueue.Enqueuer;
import dev.errand.internal.enqueue.Requests;
import dev.errand.internal.event.EventGate;
import dev.errand.internal.event.JdbcEventAdmin;
import dev.errand.internal.history.JdbcHistoryAdmin;
import dev.errand.internal.process.JdbcProcessAdmin;
import dev.errand.internal.process.ProcessRegistry;
import dev.errand.internal.process.ProcessRuntime;
import dev.errand.internal.runtime.Problems;
import dev.errand.internal.schedule.FireAhead;
import dev.errand.internal.schedule.JdbcScheduleAdmin;
import dev.errand.internal.schedule.ScheduleChanges;
import dev.errand.internal.schedule.ScheduleChecks;
import dev.errand.internal.schedule.ScheduleStore;
import dev.errand.internal.schedule.SlotTasks;
import dev.errand.internal.store.Jdbc;
import dev.errand.internal.store.NewTask;
import dev.errand.internal.store.Storage;
import dev.errand.internal.wakeup.PostgresNotificationListener;
import dev.errand.internal.wakeup.WakeUps;
import dev.errand.internal.workflow.JdbcBatchAdmin;
import dev.errand.internal.workflow.WorkflowEnqueuer;
import dev.errand.node.ClusterAdmin;
import dev.errand.node.NodeHealth;
import dev.errand.node.NodeStats;
import dev.errand.node.PinPolicy;
import dev.errand.node.QueueActivity;
import dev.errand.process.ProcessAdmin;
import dev.errand.schedule.ScheduleAdmin;
import dev.errand.spi.ClaimStrategy;
import dev.errand.spi.ClaimedTask;
import dev.errand.spi.TaskListener;
import dev.errand.task.ExecutionMode;
import dev.errand.task.FailureCause;
import dev.errand.workflow.EnqueuedWorkflow;
import dev.errand.workflow.Workflow;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;

/**
 * One Errand node: enqueue tasks into the application's database, run them, and administer them.
 *
 * <pre>{@code
 * TaskKind<Email> SEND_EMAIL = TaskKind.of("send-email", Email.class);
 * Errand errand = Errand.builder(dataSource)
 *         .register(TaskDefinition.builder(SEND_EMAIL, (email, ctx) -> mailer.send(email))
 *                 .mode(ExecutionMode.NON_TRANSACTIONAL)
 *                 .build())
 *         .build();
 * errand.start();
 * errand.enqueue(connection, TaskRequest.of(SEND_EMAIL, new Email("a@example.com", "Hi")));
 * }</pre>
 *
 * <p>Thread-safe. {@link #close()} stops it gracefully. Database failures throw
 * {@link ErrandException}; bad arguments throw {@link IllegalArgumentException}.
 */
public final class Errand implements AutoCloseable {

    /**
     * What a node is assembled from; {@link ErrandBuilder} collects it.
     *
     * @param settings the validated settings
     * @param stores the task table, transactions and the statements beside it
     * @param kinds the registered kinds
     * @param claimStrategy how pollers claim
     * @param listener the application's listeners, as one
     */
    record Assembly(
            ErrandSettings settings, Stores stores, Kinds kinds, ClaimStrategy claimStrategy, TaskListener listener) {}

    private final ErrandSettings settings;
    private final Storage storage;
    private final Stores stores;
    private final Enqueuer enqueuer;
    private final TaskAdmin admin;
    private final boolean transactionalKinds;
    private final ScheduleAdmin schedules;
    private final Engine.Parts engineParts;
    private final NodeAgent agent;
    private final ClusterAdmin cluster;
    /** Schedule firing and pruning: on the leader only, whether or not this node processes tasks. */
    private final LeaderChores chores;

    private final Problems choreProblems = new Problems();
    private volatile Engine engine;
    private boolean agentRunning;
    private final WakeUps wakeUps = new WakeUps();
    private final EventAdmin events;
    private final HistoryAdmin history;
    private final WorkflowEnqueuer workflows;
    private final BatchAdmin batches;
    private PostgresNotificationListener notifications;
    private volatile ProcessAdmin processes;
    private volatile boolean running;
    private boolean stopped;

    Errand(Assembly assembly) {
        this.settings = assembly.settings();
        Stores stores = assembly.stores();
        this.stores = stores;
        this.storage = stores.storage();
        Requests requests = new Requests(
                settings, assembly.kinds().definitions(), assembly.kinds().codec());
        EventGate gate = new EventGate(stores.events());
        this.enqueuer = new Enqueuer(storage, gate, requests, wakeUps, assembly.listener());
        this.workflows = new WorkflowEnqueuer(storage, stores.workflows(), gate, requests);
        this.batches = new JdbcBatchAdmin(storage, stores.workflows(), stores.finisher());
        this.admin = new JdbcTaskAdmin(stores);
        this.transactionalKinds = assembly.kinds().definitions().values().stream()
                .anyMatch(definition -> definition.mode() == ExecutionMode.TRANSACTIONAL);
        ScheduleStore scheduleStore =
                new ScheduleStore(storage.dialect(), settings.tablePrefix().scheduleTable());
        this.schedules = new JdbcScheduleAdmin(
                storage,
                scheduleStore,
                new ScheduleChanges(
                        scheduleStore,
                        new SlotTasks(storage.dialect(), storage.tasks().table()),
                        new FireAhead(settings.scheduleLookahead())),
                new ScheduleChecks(
                        assembly.kinds().definitions(),
                        settings.queues().keySet(),
                        assembly.kinds().codec()));
        this.history = new JdbcHistoryAdmin(storage, stores.attempts());
        this.events = new JdbcEventAdmin(storage, stores.events(), Enqueuer.notificationChannel(settings), wakeUps);
        this.engineParts =
                new Engine.Parts(stores, assembly.kinds(), assembly.claimStrategy(), settings, assembly.listener());
        this.engine = new Engine(engineParts);
        Map<String, PinPolicy> pinPolicies = new LinkedHashMap<>();
        assembly.kinds().definitions().forEach((kind, definition) -> pinPolicies.put(kind, definition.pinPolicy()));
        this.agent = new NodeAgent(storage, settings, wakeUps.of(NodeAgent.COMMAND_WAKE_UP), pinPolicies);
        this.chores = new LeaderChores(stores, settings, assembly.kinds().definitions(), choreProblems);
        this.cluster = new JdbcClusterAdmin(
                storage,
                agent.store(),
                settings.cluster().deadNodeTimeout(),
                Enqueuer.notificationChannel(settings),
                agent.commandSignal());
    }

    /** Starts configuring an Errand node on the application's DataSource. */
    public static ErrandBuilder builder(DataSource dataSource) {
        return new ErrandBuilder(dataSource);
    }

    /** How long {@link #start()} keeps trying to register while the database cannot be reached. */
    private static final Duration REGISTER_PATIENCE = Duration.ofSeconds(30);

    /**
     * Registers the node. A database that cannot be reached (restarting, or a connection cut) is waited
     * for up to {@link #REGISTER_PATIENCE}, so that a node started during an outage does not give up its
     * cluster features for good; any other failure is thrown at once.
     */
    private List<ClusterStore.ControlRow> register() throws SQLException {
        long deadline = System.nanoTime() + REGISTER_PATIENCE.toNanos();
        boolean warned = false;
        while (true) {
            try {
                return agent.start(new AgentHooks(), settings.processingEnabled());
            } catch (SQLException e) {
                if (!storage.dialect().isConnectionFailure(e) || System.nanoTime() > deadline) {
                    throw e;
                }
                if (!warned) {
                    org.slf4j.LoggerFactory.getLogger(Errand.class)
                            .warn(
                                    "Node {} cannot reach the database to register ({}); trying again for up to {}",
                                    settings.nodeId(),
                                    e.getMessage(),
                                    REGISTER_PATIENCE);
                    warned = true;
                }
                try {
                    Thread.sleep(500);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    /**
     * Starts the node: registers it in the node registry, starts its cluster heartbeat and command
     * reader, and runs tasks unless processing is turned off. Calling it again while running has no
     * further effect; calling it after {@link #stop()} starts the node again in the same JVM.
     *
     * @throws ErrandException if the node cannot register
     */
    public synchronized void start() {
        if (!agentRunning) {
            if (storage.dialect().deliversNotifications()) {
                notifications = new PostgresNotificationListener(
                        storage.dataSource(),
                        Enqueuer.notificationChannel(settings),
                        wakeUps,
                        settings.threadNamePrefix() + "listener");
            }
            List<ClusterStore.ControlRow> controls = List.of();
            try {
                controls = register();
                agentRunning = true;
            } catch (SQLException e) {
                // A schema without the cluster tables (own DDL, migration 9 not applied) still runs tasks.
                org.slf4j.LoggerFactory.getLogger(Errand.class)
                        .error(
                                "Node {} could not register in the node registry ({}); it runs without cluster"
                                        + " features (registry, leader, commands, queue controls). Apply"
                                        + " migration V9__add_cluster.sql, or restart the node once the database"
                                        + " answers",
                                settings.nodeId(),
                                e.getMessage());
            }
            // Without the registry there is no leader: every such node does the chores, as before issue 13.
            chores.start(agentRunning ? agent::leading : () -> true);
            startProcessing(agentRunning ? controls : List.of());
            return;
        }
        startProcessing(null);
    }

    /** Starts the engine (a new one if it ran before), unless processing is turned off or it runs. */
    private synchronized void startProcessing(List<ClusterStore.ControlRow> controls) {
        if (running || !settings.processingEnabled()) {
            return;
        }
        PoolSizeCheck.warnIfTooSmall(
                storage.dataSource(), settings.queues(), storage.dialect().deliversNotifications(), transactionalKinds);
        if (stopped) {
            engine = new Engine(engineParts);
        }
        try {
            engine.start(
                    wakeUps,
                    controls != null || !agentRunning
                            ? (controls != null ? controls : List.of())
                            : storage.transactions().runStatement("queue controls", agent.store()::controls));
        } catch (SQLException e) {
            throw new ErrandException("read queue controls", e);
        }
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
     * {@code timeout} for running ones, then mark the node as stopped in the registry (and give up the
     * leader lease if it held it). Tasks still running then are interrupted; their leases expire and
     * another node (or this one after a restart) rescues them. {@link #start()} starts it again.
     *
     * @return true if every running task finished in time
     */
    public synchronized boolean stop(Duration timeout) {
        if (timeout == null || timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must be zero or more, got " + timeout);
        }
        boolean finished = stopProcessing(timeout);
        chores.stop();
        if (agentRunning) {
            agentRunning = false;
            agent.stop();
        }
        closeNotifications();
        return finished;
    }

    /** Stops the engine only; the node stays registered and keeps reading commands. */
    private synchronized boolean stopProcessing(Duration timeout) {
        if (!running) {
            return true;
        }
        running = false;
        stopped = true;
        return engine.stop(timeout);
    }

    private void closeNotifications() {
        if (notifications != null) {
            notifications.close();
            notifications = null;
        }
    }

    /** Makes every queue of this node claim now instead of at its next poll. */
    public void repoll() {
        for (String queue : settings.queues().keySet()) {
            wakeUps.wake(queue);
        }
    }

    /** The cluster: node registry, leader, commands to other nodes, cluster-wide queue controls. */
    public ClusterAdmin cluster() {
        return cluster;
    }

    /** Whether this node holds the leader lease (as of its last heartbeat). */
    public boolean isLeader() {
        return agent.leading();
    }

    /** What the node agent asks of this node. */
    private final class AgentHooks implements NodeAgent.Hooks {
        @Override
        public boolean processing() {
            return isRunning();
        }

        @Override
        public void repoll() {
            Errand.this.repoll();
        }

        @Override
        public void stopProcessing() {
            Errand.this.stopProcessing(settings.shutdownTimeout());
        }

        @Override
        public void startProcessing() {
            if (!settings.processingEnabled()) {
                org.slf4j.LoggerFactory.getLogger(Errand.class)
                        .warn(
                                "Node {} ignores a start command: processing is disabled in its configuration",
                                settings.nodeId());
                return;
            }
            synchronized (Errand.this) {
                // A start command queued before a local stop() must not restart a node that was stopped.
                if (agentRunning) {
                    Errand.this.startProcessing(null);
                }
            }
        }

        @Override
        public void applyControls(List<ClusterStore.ControlRow> controls) {
            engine.applyControls(controls);
        }

        @Override
        public boolean failPinned(ClaimedTask task, FailureCause.PinnedNodeAbsent cause) {
            return engine.failPinned(task, cause);
        }

        @Override
        public int rescueNow() {
            return rescueExpiredLeases();
        }
    }

    /** Stops gracefully with the configured timeout. */
    @Override
    public void close() {
        stop();
    }

    /** Whether this node is running tasks. */
    public boolean isRunning() {
        return running;
    }

    /**
     * Enqueues a task on the caller's connection, inside the caller's transaction: the task exists if
     * and only if that transaction commits.
     *
     * @return the task, and whether it is new or an active task that already held the request's unique key
     * @throws IllegalArgumentException for a bad request: unknown queue, a payload of the wrong type or
     *     that cannot be written, null
     * @throws ErrandException if the insert fails
     */
    public Enqueued enqueue(Connection connection, TaskRequest request) {
        try {
            return enqueuer.enqueue(connection, request);
        } catch (SQLException e) {
            throw new ErrandException("enqueue", e);
        }
    }

    /**
     * Enqueues a task in a transaction of its own.
     *
     * @return the task, and whether it is new or deduplicated by its unique key
     * @throws IllegalArgumentException for a bad request
     * @throws ErrandException if the insert fails
     */
    public Enqueued enqueue(TaskRequest request) {
        try {
            return enqueuer.enqueue(request);
        } catch (SQLException e) {
            throw new ErrandException("enqueue", e);
        }
    }

    /**
     * Enqueues many tasks on the caller's connection; tasks without a unique key go in one round trip.
     *
     * @return what each request did, in request order
     * @throws IllegalArgumentException for a bad request; nothing is inserted
     * @throws ErrandException if the insert fails
     */
    public List<Enqueued> enqueueAll(Connection connection, List<TaskRequest> requests) {
        try {
            return enqueuer.enqueueAll(connection, requests);
        } catch (SQLException e) {
            throw new ErrandException("enqueueAll", e);
        }
    }

    /**
     * Enqueues many tasks in one transaction of their own.
     *
     * @return what each request did, in request order
     * @throws IllegalArgumentException for a bad request; nothing is inserted
     * @throws ErrandException if the insert fails; nothing is inserted
     */
    public List<Enqueued> enqueueAll(List<TaskRequest> requests) {
        try {
            return enqueuer.enqueueAll(requests);
        } catch (SQLException e) {
            throw new ErrandException("enqueueAll", e);
        }
    }

    /**
     * Enqueues a workflow on the caller's connection, inside the caller's transaction: all its steps exist
     * if and only if that transaction commits. Steps with dependencies wait until those have succeeded.
     *
     * @return each step's task id
     * @throws IllegalArgumentException if the connection or workflow is null, or a step's request is bad;
     *     nothing is inserted
     * @throws ErrandException if the insert fails
     */
    public EnqueuedWorkflow enqueueWorkflow(Connection connection, Workflow workflow) {
        requireConnection(connection);
        Map<String, NewTask> rows = workflows.resolve(requireWorkflow(workflow));
        try {
            EnqueuedWorkflow enqueued = Jdbc.atomically(connection, c -> workflows.insert(c, workflow, rows));
            if (connection.getAutoCommit()) {
                WorkflowEnqueuer.queues(rows.values()).forEach(wakeUps::wake);
            }
            return enqueued;
        } catch (SQLException e) {
            throw new ErrandException("enqueueWorkflow", e);
        }
    }

    /**
     * Enqueues a workflow in a transaction of its own; see {@link #enqueueWorkflow(Connection, Workflow)}.
     *
     * @return each step's task id
     * @throws IllegalArgumentException if the workflow is null or a step's request is bad
     * @throws ErrandException if the insert fails; nothing is inserted
     */
    public EnqueuedWorkflow enqueueWorkflow(Workflow workflow) {
        Map<String, NewTask> rows = workflows.resolve(requireWorkflow(workflow));
        try {
            EnqueuedWorkflow enqueued =
                    storage.transactions().run("enqueueWorkflow", c -> workflows.insert(c, workflow, rows));
            WorkflowEnqueuer.queues(rows.values()).forEach(wakeUps::wake);
            return enqueued;
        } catch (SQLException e) {
            throw new ErrandException("enqueueWorkflow", e);
        }
    }

    /**
     * Enqueues a batch on the caller's connection, inside the caller's transaction: the batch, its tasks
     * and its callbacks exist if and only if that transaction commits.
     *
     * @return the batch's id and its tasks' ids
     * @throws IllegalArgumentException if the connection or batch is null, or a request is bad; nothing is
     *     inserted
     * @throws ErrandException if the insert fails
     */
    public EnqueuedBatch enqueueBatch(Connection connection, BatchRequest batch) {
        requireConnection(connection);
        Set<String> queues = workflows.check(requireBatch(batch));
        try {
            EnqueuedBatch enqueued = Jdbc.atomically(connection, c -> workflows.insert(c, batch));
            if (connection.getAutoCommit()) {
                queues.forEach(wakeUps::wake);
            }
            return enqueued;
        } catch (SQLException e) {
            throw new ErrandException("enqueueBatch", e);
        }
    }

    /**
     * Enqueues a batch in a transaction of its own; see {@link #enqueueBatch(Connection, BatchRequest)}.
     *
     * @return the batch's id and its tasks' ids
     * @throws IllegalArgumentException if the batch is null or a request is bad
     * @throws ErrandException if the insert fails; nothing is inserted
     */
    public EnqueuedBatch enqueueBatch(BatchRequest batch) {
        Set<String> queues = workflows.check(requireBatch(batch));
        try {
            EnqueuedBatch enqueued = storage.transactions().run("enqueueBatch", c -> workflows.insert(c, batch));
            queues.forEach(wakeUps::wake);
            return enqueued;
        } catch (SQLException e) {
            throw new ErrandException("enqueueBatch", e);
        }
    }

    /** Batches: their progress, cancelling them, and the callbacks that fired. */
    public BatchAdmin batches() {
        return batches;
    }

    /** Connects the processes this node registers; the builder calls it once. */
    void attachProcesses(ProcessRegistry registry) {
        this.processes = new JdbcProcessAdmin(
                new ProcessRuntime(stores, settings, engineParts.kinds(), registry), wakeUps::wake);
    }

    /** Distributed processes: start them, read their turns and failed batches, wait for, cancel and re-run them. */
    public ProcessAdmin processes() {
        return processes;
    }

    /** Runs one sweep of batch callbacks now, as every node does every rescue interval. */
    public int sweepBatches() {
        try {
            return engine.sweepBatchesNow();
        } catch (SQLException e) {
            throw new ErrandException("sweepBatches", e);
        }
    }

    private static void requireConnection(Connection connection) {
        if (connection == null) {
            throw new IllegalArgumentException("connection must not be null: pass the connection of the"
                    + " transaction the tasks belong to, or use the overload without one");
        }
    }

    private static Workflow requireWorkflow(Workflow workflow) {
        if (workflow == null) {
            throw new IllegalArgumentException("workflow must not be null: build one with Workflow.builder()");
        }
        return workflow;
    }

    private static BatchRequest requireBatch(BatchRequest batch) {
        if (batch == null) {
            throw new IllegalArgumentException("batch must not be null: build one with BatchRequest.builder()");
        }
        return batch;
    }

    /**
     * Triggers an event on the caller's connection, inside the caller's transaction: every waiting task
     * that has it as a condition has that condition fulfilled, and those that wait for nothing else become
     * pending, when the transaction commits. If no task waits for it, the event is stored as premature and
     * the next task enqueued with it as a condition does not wait for it.
     *
     * @return what the trigger did
     * @throws IllegalArgumentException if the connection is null or the name is not a valid event name
     * @throws ErrandException if the database fails
     */
    public Triggered triggerEvent(Connection connection, String event) {
        return events.trigger(connection, event);
    }

    /**
     * Triggers an event in a transaction of its own; see {@link #triggerEvent(Connection, String)}.
     *
     * @return what the trigger did
     * @throws IllegalArgumentException if the name is not a valid event name
     * @throws ErrandException if the database fails
     */
    public Triggered triggerEvent(String event) {
        return events.trigger(event);
    }

    /**
     * The attempt history: every ended attempt of every task, with its node, times, outcome and error, kept
     * after the task is gone (for {@code historyRetention}, default 7 days). Empty while history is off, as it
     * is by default ({@code ErrandBuilder.historyEnabled(true)} turns it on).
     */
    public HistoryAdmin history() {
        return history;
    }

    /** Events: trigger them, list the tasks that wait and the premature events, delete premature events. */
    public EventAdmin events() {
        return events;
    }

    /**
     * Wakes this node's poller of a queue, for example right after the caller's transaction committed. A queue
     * this node does not declare has no poller: nothing happens.
     *
     * @throws IllegalArgumentException if the queue is null
     */
    public void wakeUp(String queue) {
        if (queue == null) {
            throw new IllegalArgumentException("queue must not be null: name a queue this node declares, or call"
                    + " repoll() to wake every queue");
        }
        wakeUps.wake(queue);
    }

    /**
     * The recurring schedules: list, add or change, pause, resume and remove them at run time, cluster-wide.
     */
    public ScheduleAdmin schedules() {
        return schedules;
    }

    /** The admin API: find, list, count, cancel, retry, reschedule and delete tasks. */
    public TaskAdmin admin() {
        return admin;
    }

    /**
     * Runs one expiry sweep now instead of waiting for the rescue interval: fails the pending and waiting
     * tasks whose deadline, or whose open condition's deadline, has passed, and runs their failure callbacks.
     * A node that is not started can run it too.
     *
     * @return how many tasks this node expired
     * @throws ErrandException if the database cannot be read
     */
    public int expireOverdueTasks() {
        try {
            return engine.expireNow();
        } catch (SQLException e) {
            throw new ErrandException("expiry", e);
        }
    }

    /**
     * Runs one rescue sweep now instead of waiting for the rescue interval.
     *
     * @return how many tasks were rescued
     * @throws ErrandException if the database cannot be read
     */
    public int rescueExpiredLeases() {
        try {
            return engine.rescueNow();
        } catch (SQLException e) {
            throw new ErrandException("rescue", e);
        }
    }

    /** This node's counters. */
    public NodeStats stats() {
        return engine.stats();
    }

    /** Whether this node's engine threads can do their work; see {@link NodeHealth}. */
    public NodeHealth health() {
        NodeHealth engineHealth = engine.health();
        NodeHealth choreHealth = choreProblems.health();
        if (choreHealth.problems().isEmpty()) {
            return engineHealth;
        }
        Map<String, String> problems = new java.util.TreeMap<>(engineHealth.problems());
        problems.putAll(choreHealth.problems());
        return new NodeHealth(engineHealth.healthy() && choreHealth.healthy(), problems);
    }

    /** What each queue does on this node now: executing and buffered tasks. Empty until started. */
    public Map<String, QueueActivity> activity() {
        return new LinkedHashMap<>(engine.activity());
    }

    /** The settings this node runs with. */
    public ErrandSettings settings() {
        return settings;
    }

    /** The detected database dialect's name, such as {@code postgresql} or {@code h2}. */
    public String dialectName() {
        return storage.dialect().name();
    }
}
