package dev.errand.internal.node;

import dev.errand.admin.TaskAdmin;
import dev.errand.batch.BatchAdmin;
import dev.errand.config.ErrandSettings;
import dev.errand.enqueue.Enqueued;
import dev.errand.enqueue.TaskRequest;
import dev.errand.error.ErrandException;
import dev.errand.event.EventAdmin;
import dev.errand.flow.FlowAdmin;
import dev.errand.history.HistoryAdmin;
import dev.errand.internal.admin.JdbcTaskAdmin;
import dev.errand.internal.cluster.ClusterStore;
import dev.errand.internal.cluster.ControlAudit;
import dev.errand.internal.cluster.JdbcClusterAdmin;
import dev.errand.internal.cluster.NodeAgent;
import dev.errand.internal.counts.CountSnapshots;
import dev.errand.internal.engine.Engine;
import dev.errand.internal.engine.Kinds;
import dev.errand.internal.engine.PoolSizeCheck;
import dev.errand.internal.engine.Stores;
import dev.errand.internal.enqueue.Enqueuer;
import dev.errand.internal.event.EventGate;
import dev.errand.internal.event.EventStore;
import dev.errand.internal.event.EventTrigger;
import dev.errand.internal.event.JdbcEventAdmin;
import dev.errand.internal.flow.FlowControl;
import dev.errand.internal.flow.JdbcFlowAdmin;
import dev.errand.internal.history.AttemptHistory;
import dev.errand.internal.history.JdbcHistoryAdmin;
import dev.errand.internal.history.NodeThroughput;
import dev.errand.internal.process.JdbcProcessAdmin;
import dev.errand.internal.process.ProcessRegistry;
import dev.errand.internal.process.ProcessRuntime;
import dev.errand.internal.process.ProcessStore;
import dev.errand.internal.runtime.Duty;
import dev.errand.internal.runtime.DutyHost;
import dev.errand.internal.schedule.FireAhead;
import dev.errand.internal.schedule.JdbcScheduleAdmin;
import dev.errand.internal.schedule.ManualRuns;
import dev.errand.internal.schedule.ScheduleChanges;
import dev.errand.internal.schedule.ScheduleChecks;
import dev.errand.internal.schedule.ScheduleFirer;
import dev.errand.internal.schedule.ScheduleStore;
import dev.errand.internal.schedule.SlotTasks;
import dev.errand.internal.store.CancelRequests;
import dev.errand.internal.store.Dialect;
import dev.errand.internal.store.Expirations;
import dev.errand.internal.store.FinishedTasks;
import dev.errand.internal.store.Pruner;
import dev.errand.internal.store.Storage;
import dev.errand.internal.store.TaskQueries;
import dev.errand.internal.store.TaskStore;
import dev.errand.internal.store.Transactions;
import dev.errand.internal.wakeup.ListenerStart;
import dev.errand.internal.wakeup.Listening;
import dev.errand.internal.wakeup.PostgresNotificationListener;
import dev.errand.internal.wakeup.WakeUps;
import dev.errand.internal.workflow.BatchSweeper;
import dev.errand.internal.workflow.Finisher;
import dev.errand.internal.workflow.JdbcBatchAdmin;
import dev.errand.internal.workflow.WorkflowEnqueuer;
import dev.errand.internal.workflow.WorkflowStore;
import dev.errand.node.ClusterAdmin;
import dev.errand.node.KindControl;
import dev.errand.node.NodeHealth;
import dev.errand.node.NodeStats;
import dev.errand.node.PinPolicy;
import dev.errand.node.QueueActivity;
import dev.errand.process.ProcessAdmin;
import dev.errand.schedule.ScheduleAdmin;
import dev.errand.spi.ClaimStrategy;
import dev.errand.spi.ClaimedTask;
import dev.errand.spi.TaskListener;
import dev.errand.spi.TransactionRunner;
import dev.errand.task.ExecutionMode;
import dev.errand.task.FailureCause;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node, assembled: it builds every store and service once, by constructor, hands each what it uses, and
 * owns start and stop. {@code Errand} is its public facade; nothing else builds a store or a service.
 */
public final class Node {

    private static final Logger log = LoggerFactory.getLogger(Node.class);

    /** How long {@link #start()} keeps trying to register while the database cannot be reached. */
    private static final Duration REGISTER_PATIENCE = Duration.ofSeconds(30);

    /**
     * The database a node runs on.
     *
     * @param dataSource where every connection comes from
     * @param dialect the detected (or configured) dialect
     * @param hostTransactions the transactions of transactional handlers and failure callbacks
     * @param listening whether and where a PostgreSQL node listens for wake-ups
     */
    public record Database(
            DataSource dataSource, Dialect dialect, TransactionRunner hostTransactions, Listening listening) {}

    /**
     * What a node is assembled from; {@code ErrandBuilder} collects it.
     *
     * @param settings the validated settings
     * @param database the database and the host's transactions
     * @param kinds the registered kinds
     * @param claimStrategy how pollers claim
     * @param listener the application's listeners, as one
     */
    public record Parts(
            ErrandSettings settings,
            Database database,
            Kinds kinds,
            ClaimStrategy claimStrategy,
            TaskListener listener) {}

    /** The admin APIs, one per capability. */
    private record Admins(
            TaskAdmin tasks, BatchAdmin batches, ScheduleAdmin schedules, EventAdmin events, HistoryAdmin history) {}

    private final ErrandSettings settings;
    private final Storage storage;
    private final WakeUps wakeUps = new WakeUps();
    private final Enqueuer enqueuer;
    private final WorkflowEnqueuer workflows;
    private final Admins admins;
    private final Engine.Parts engineParts;
    /** The counts per minute each processing node writes, so that throughput shows without the history. */
    private final NodeThroughput nodeThroughput;

    private final NodeAgent agent;
    private final ClusterAdmin cluster;
    private final FlowAdmin flow;
    private final ProcessAdmin processes;
    /** Schedule firing and pruning: on the leader only, whether or not this node processes tasks. */
    private final List<Duty> leaderDuties;
    /** Runs the leader's duties, and the engine's while it runs. */
    private final DutyHost duties;

    private final boolean transactionalKinds;
    private volatile Engine engine;
    private boolean agentRunning;
    private final Listening listening;
    private PostgresNotificationListener notifications;
    private volatile boolean running;
    private boolean stopped;

    /**
     * Builds the node: every store and every service, once. Nothing runs until {@link #start()}.
     *
     * @param parts what the builder collected
     * @param processRegistry the processes this node registers; their task handlers are bound to it here
     */
    public Node(Parts parts, ProcessRegistry processRegistry) {
        this.settings = parts.settings();
        Database database = parts.database();
        this.listening = database.listening();
        Dialect dialect = database.dialect();
        String table = settings.tablePrefix().taskTable();
        this.storage = new Storage(
                new Transactions(database.dataSource(), dialect, parts.listener()),
                database.hostTransactions(),
                new TaskStore(
                        dialect,
                        table,
                        settings.succeededRetention() != null,
                        dialect.inserter(table, database.dataSource()),
                        settings.clock()),
                new CancelRequests(dialect, table, settings.tablePrefix().cancelRequestTable(), settings.clock()),
                settings.clock());
        WorkflowStore workflowStore = new WorkflowStore(dialect, settings.tablePrefix(), settings.clock());
        EventStore eventStore = new EventStore(dialect, settings.tablePrefix(), settings.clock());
        Stores stores = new Stores(
                storage,
                workflowStore,
                eventStore,
                new AttemptHistory(dialect, settings),
                new Finisher(storage, workflowStore));
        Kinds kinds = parts.kinds();
        this.transactionalKinds = kinds.definitions().values().stream()
                .anyMatch(definition -> definition.mode() == ExecutionMode.TRANSACTIONAL);
        EventGate gate = new EventGate(eventStore);
        this.enqueuer = new Enqueuer(storage, gate, kinds.requests(), wakeUps, parts.listener());
        this.workflows = new WorkflowEnqueuer(storage, workflowStore, gate, kinds.requests(), wakeUps);
        ScheduleStore scheduleStore =
                new ScheduleStore(dialect, settings.tablePrefix().scheduleTable(), settings.clock());
        FinishedTasks finishedTasks = new FinishedTasks(dialect, table, settings.clock());
        this.nodeThroughput = new NodeThroughput(storage, settings.tablePrefix());
        JdbcTaskAdmin taskAdmin = new JdbcTaskAdmin(
                stores,
                new TaskQueries(dialect, table, settings.clock()),
                finishedTasks,
                new CountSnapshots(storage, settings.tablePrefix()));
        this.admins = new Admins(
                taskAdmin,
                new JdbcBatchAdmin(storage, workflowStore, stores.finisher(), taskAdmin),
                new JdbcScheduleAdmin(
                        storage,
                        scheduleStore,
                        new ScheduleChanges(
                                scheduleStore,
                                new SlotTasks(dialect, table),
                                new FireAhead(settings.scheduleLookahead())),
                        new ScheduleChecks(
                                kinds.definitions(), settings.queues().keySet(), kinds.codec()),
                        new ManualRuns(storage, kinds.definitions(), settings, wakeUps::wake)),
                new JdbcEventAdmin(
                        storage,
                        eventStore,
                        new EventTrigger(eventStore, dialect, Enqueuer.notificationChannel(settings)),
                        wakeUps),
                new JdbcHistoryAdmin(storage, stores.attempts(), nodeThroughput));
        FlowControl flowControl = new FlowControl(
                storage,
                settings.tablePrefix().value(),
                declaredLimits(kinds),
                queueLimits(settings),
                settings.claimOrder());
        flowControl.quietPeriod(settings.pollInterval());
        flowControl.workers(settings.queues());
        this.engineParts = new Engine.Parts(
                stores,
                kinds,
                parts.claimStrategy(),
                settings,
                new Engine.Shared(
                        parts.listener(),
                        new Expirations(dialect, settings.tablePrefix(), settings.clock()),
                        new BatchSweeper(storage, workflowStore, stores.finisher()),
                        flowControl));
        ControlAudit audit =
                new ControlAudit(dialect, settings.tablePrefix(), settings.clock(), "node:" + settings.nodeId());
        this.flow = new JdbcFlowAdmin(storage, flowControl, audit);
        this.engine = new Engine(engineParts);
        Map<String, PinPolicy> pinPolicies = new LinkedHashMap<>();
        kinds.definitions().forEach((kind, definition) -> pinPolicies.put(kind, definition.pinPolicy()));
        ClusterStore clusterStore =
                new ClusterStore(dialect, settings.tablePrefix().value(), settings.clock());
        this.agent = new NodeAgent(
                storage,
                clusterStore,
                settings,
                wakeUps.of(NodeAgent.COMMAND_WAKE_UP),
                NodeAgent.Parts.of(storage, clusterStore, settings, pinPolicies));
        this.duties = new DutyHost(settings.threadNamePrefix());
        this.leaderDuties = LeaderDuties.of(
                stores,
                settings,
                agent,
                new ScheduleFirer(storage, scheduleStore, kinds.definitions(), settings),
                new LeaderDuties.Prunes(
                        new Pruner(storage, finishedTasks, settings, kinds.definitions()), clusterStore.retentions()),
                flowControl);
        this.cluster = new JdbcClusterAdmin(
                storage,
                clusterStore,
                settings.cluster().deadNodeTimeout(),
                new JdbcClusterAdmin.CommandRoute(Enqueuer.notificationChannel(settings), agent.commandSignal()),
                audit);
        this.processes = new JdbcProcessAdmin(
                new ProcessRuntime(
                        stores,
                        new ProcessStore(dialect, settings.tablePrefix(), settings.clock()),
                        settings,
                        kinds,
                        processRegistry),
                wakeUps::wake);
    }

    /** Every queue the node serves, with the cluster-wide limits it declares. */
    private static Map<String, FlowControl.QueueLimits> queueLimits(ErrandSettings settings) {
        Map<String, FlowControl.QueueLimits> limits = new java.util.HashMap<>();
        settings.queues()
                .keySet()
                .forEach(queue -> limits.put(
                        queue,
                        new FlowControl.QueueLimits(
                                settings.queueConcurrencyLimits().get(queue),
                                settings.queueRateLimits().get(queue))));
        return limits;
    }

    /** Every kind the node registers, with the flow limits its definition declares. */
    private static Map<String, FlowControl.Declared> declaredLimits(Kinds kinds) {
        Map<String, FlowControl.Declared> limits = new java.util.HashMap<>();
        kinds.definitions()
                .forEach((kind, definition) -> limits.put(
                        kind,
                        new FlowControl.Declared(
                                definition.concurrencyLimit(),
                                definition.concurrencyLimitPerKey(),
                                definition.rateLimit(),
                                definition.rateLimitPerKey())));
        return limits;
    }

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
                    log.warn(
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

    /** Starts the node; see {@code Errand.start()}. */
    public synchronized void start() {
        if (!agentRunning) {
            if (storage.dialect().deliversNotifications()) {
                notifications = new ListenerStart(listening, ListenerStart.PATIENCE)
                        .start(
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
                log.error(
                        "Node {} could not register in the node registry ({}); it runs without cluster"
                                + " features (registry, leader, commands, queue controls). Apply"
                                + " migration V9__add_cluster.sql, or restart the node once the database"
                                + " answers",
                        settings.nodeId(),
                        e.getMessage());
            }
            // Without the registry there is no leader: every such node does the leader's duties, as before issue 13.
            duties.start(Duty.Scope.LEADER, leaderDuties, agentRunning ? agent::leading : () -> true);
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
        List<Duty> everyNode = new ArrayList<>(engine.duties());
        everyNode.add(nodeThroughput.duty(settings.nodeId(), engine.stats(), settings.heartbeatInterval()));
        duties.start(Duty.Scope.EVERY_NODE, everyNode, () -> true);
        running = true;
    }

    /** Stops the node; see {@code Errand.stop(Duration)}. */
    public synchronized boolean stop(Duration timeout) {
        if (timeout == null || timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must be zero or more, got " + timeout);
        }
        boolean finished = stopProcessing(timeout);
        duties.stop(Duty.Scope.LEADER);
        if (agentRunning) {
            agentRunning = false;
            agent.stop();
        }
        if (notifications != null) {
            notifications.close();
            notifications = null;
        }
        return finished;
    }

    /** Stops the engine only; the node stays registered and keeps reading commands. */
    private synchronized boolean stopProcessing(Duration timeout) {
        if (!running) {
            return true;
        }
        running = false;
        stopped = true;
        boolean finished = engine.stop(timeout);
        duties.stop(Duty.Scope.EVERY_NODE);
        return finished;
    }

    /** Makes every queue of this node claim now instead of at its next poll. */
    public void repoll() {
        for (String queue : settings.queues().keySet()) {
            wakeUps.wake(queue);
        }
    }

    /** Wakes this node's poller of a queue; see {@code Errand.wakeUp(String)}. */
    public void wakeUp(String queue) {
        if (queue == null) {
            throw new IllegalArgumentException("queue must not be null: name a queue this node declares, or call"
                    + " repoll() to wake every queue");
        }
        wakeUps.wake(queue);
    }

    /** What the node agent asks of this node. */
    private final class AgentHooks implements NodeAgent.Hooks {
        @Override
        public boolean processing() {
            return isRunning();
        }

        @Override
        public void repoll() {
            Node.this.repoll();
        }

        @Override
        public void stopProcessing() {
            Node.this.stopProcessing(settings.shutdownTimeout());
        }

        @Override
        public void startProcessing() {
            if (!settings.processingEnabled()) {
                log.warn(
                        "Node {} ignores a start command: processing is disabled in its configuration",
                        settings.nodeId());
                return;
            }
            synchronized (Node.this) {
                // A start command queued before a local stop() must not restart a node that was stopped.
                if (agentRunning) {
                    Node.this.startProcessing(null);
                }
            }
        }

        @Override
        public void applyControls(List<ClusterStore.ControlRow> controls) {
            engine.applyControls(controls);
        }

        @Override
        public void applyKindControls(List<KindControl> controls) {
            engineParts.kinds().overrides().apply(controls);
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

    /** Whether this node is running tasks. */
    public boolean isRunning() {
        return running;
    }

    /** Whether this node holds the leader lease (as of its last heartbeat). */
    public boolean isLeader() {
        return agent.leading();
    }

    /** Enqueues on the caller's connection; see {@code Errand.enqueue(Connection, TaskRequest)}. */
    public Enqueued enqueue(Connection connection, TaskRequest request) {
        try {
            return enqueuer.enqueue(connection, request);
        } catch (SQLException e) {
            throw new ErrandException("enqueue", e);
        }
    }

    /** Enqueues in a transaction of its own; see {@code Errand.enqueue(TaskRequest)}. */
    public Enqueued enqueue(TaskRequest request) {
        try {
            return enqueuer.enqueue(request);
        } catch (SQLException e) {
            throw new ErrandException("enqueue", e);
        }
    }

    /** Enqueues many on the caller's connection; see {@code Errand.enqueueAll(Connection, List)}. */
    public List<Enqueued> enqueueAll(Connection connection, List<TaskRequest> requests) {
        try {
            return enqueuer.enqueueAll(connection, requests);
        } catch (SQLException e) {
            throw new ErrandException("enqueueAll", e);
        }
    }

    /** Enqueues many in one transaction of their own; see {@code Errand.enqueueAll(List)}. */
    public List<Enqueued> enqueueAll(List<TaskRequest> requests) {
        try {
            return enqueuer.enqueueAll(requests);
        } catch (SQLException e) {
            throw new ErrandException("enqueueAll", e);
        }
    }

    /** Workflows and batches into rows and links, with the wake-ups after commit. */
    public WorkflowEnqueuer workflows() {
        return workflows;
    }

    /** The cluster admin API. */
    public ClusterAdmin cluster() {
        return cluster;
    }

    /** The flow limits' admin API. */
    public FlowAdmin flow() {
        return flow;
    }

    /** The task admin API. */
    public TaskAdmin admin() {
        return admins.tasks();
    }

    /** The batch admin API. */
    public BatchAdmin batches() {
        return admins.batches();
    }

    /** The schedule admin API. */
    public ScheduleAdmin schedules() {
        return admins.schedules();
    }

    /** The event admin API. */
    public EventAdmin events() {
        return admins.events();
    }

    /** The attempt history. */
    public HistoryAdmin history() {
        return admins.history();
    }

    /** The process admin API. */
    public ProcessAdmin processes() {
        return processes;
    }

    /** This node's counters. */
    public NodeStats stats() {
        return engine.stats();
    }

    /**
     * How many claims this node's engine (the one started last) has made, whether they found tasks or not;
     * tests wait on it for a poll to have happened.
     */
    public long polls() {
        return engine.stats().polls();
    }

    /** Whether this node's engine threads and duties can do their work. */
    public NodeHealth health() {
        NodeHealth engineHealth = engine.health();
        NodeHealth dutyHealth = duties.health();
        if (dutyHealth.problems().isEmpty()) {
            return engineHealth;
        }
        Map<String, String> problems = new TreeMap<>(engineHealth.problems());
        problems.putAll(dutyHealth.problems());
        return new NodeHealth(engineHealth.healthy() && dutyHealth.healthy(), problems);
    }

    /** What each queue does on this node now. */
    public Map<String, QueueActivity> activity() {
        return new LinkedHashMap<>(engine.activity());
    }

    /** The settings this node runs with. */
    public ErrandSettings settings() {
        return settings;
    }

    /** The database dialect's name. */
    public String dialectName() {
        return storage.dialect().name();
    }

    /**
     * Runs one expiry sweep now instead of waiting for the rescue interval: fails the pending and waiting
     * tasks whose deadline, or whose open condition's deadline, has passed. A node that is not started can
     * run it too.
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

    /**
     * Runs one sweep of batch callbacks now, as every node does every rescue interval.
     *
     * @return how many batches it checked
     * @throws ErrandException if the database cannot be read
     */
    public int sweepBatches() {
        try {
            return engine.sweepBatchesNow();
        } catch (SQLException e) {
            throw new ErrandException("sweepBatches", e);
        }
    }
}
