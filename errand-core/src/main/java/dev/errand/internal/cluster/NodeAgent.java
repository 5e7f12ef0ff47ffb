package dev.errand.internal.cluster;

import dev.errand.config.ErrandSettings;
import dev.errand.internal.cluster.ClusterStore.CommandRow;
import dev.errand.internal.cluster.ClusterStore.ControlRow;
import dev.errand.internal.runtime.Outage;
import dev.errand.internal.store.Micros;
import dev.errand.internal.store.Storage;
import dev.errand.internal.wakeup.QueueSignal;
import dev.errand.node.KindControl;
import dev.errand.node.PinPolicy;
import dev.errand.spi.ClaimedTask;
import dev.errand.task.FailureCause;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's life in the cluster, on a thread of its own from {@link #start} to {@link #stop}, whether or
 * not the node processes tasks: each heartbeat interval it moves its registry row's heartbeat on, takes or
 * renews the leader lease, and reads the commands sent since the last read, all in one transaction (one
 * commit per node per beat); as leader it also deletes old commands and reads the other nodes' heartbeats in
 * that transaction. What the leader then writes, the dead-node sweep ({@link #sweepDeadNodes()}) and the pin
 * sweep ({@link #sweepPins()}), are leader duties that the node's duty host runs, not this thread. A wake-up
 * of {@link #commandSignal()} (a PostgreSQL notification, or a command sent from this JVM) makes it read
 * commands at once.
 */
public final class NodeAgent {

    /** The wake-up name that command notifications carry; no queue can have it (a control character). */
    public static final String COMMAND_WAKE_UP = "\u0001errand-command";

    /**
     * How far below the highest id seen a node reads again: a command whose id was handed out before
     * another's but committed after it is still seen, once.
     */
    private static final int COMMAND_WINDOW = 100;

    /** Commands older than this are deleted by the leader: every live node has read them long before. */
    private static final Duration COMMAND_RETENTION = Duration.ofHours(1);

    private static final Logger log = LoggerFactory.getLogger(NodeAgent.class);

    /** What the agent does to its node; implemented by the node. */
    public interface Hooks {
        /** Whether the node's engine is running. */
        boolean processing();

        /** Claims again now on every queue. */
        void repoll();

        /** Stops processing, as a graceful stop of the engine would. */
        void stopProcessing();

        /** Starts processing again. */
        void startProcessing();

        /** Applies the cluster-wide queue controls. */
        void applyControls(List<ControlRow> controls);

        /** Applies the cluster-wide run-time overrides of kinds' settings. */
        void applyKindControls(List<KindControl> controls);

        /**
         * After a dead-node sweep ended leases: rescues now.
         *
         * @return how many tasks it rescued
         */
        int rescueNow();

        /**
         * Fails a pending task whose pinned node stayed away past its kind's pin policy, with the kind's
         * failure callback; returns whether this node failed it.
         */
        boolean failPinned(ClaimedTask task, FailureCause.PinnedNodeAbsent cause);
    }

    private final Storage storage;
    private final ClusterStore store;
    private final ErrandSettings settings;
    private final NodeRegistry registry;
    private final Leadership leadership;
    private final DeadNodeSweep deadNodes;
    private final QueueSignal commandSignal;
    private final PinSweep pins;
    private final NodePruner pruner;
    private final Outage heartbeatOutage = new Outage(
            log,
            "The cluster heartbeat",
            "the node keeps trying; the leader declares it dead if this lasts longer than the dead-node timeout");
    private Hooks hooks;
    private Thread thread;
    private ExecutorService commands;
    private volatile boolean running;
    private long lastCommandId;
    /**
     * The nodes the leader's last beat found dead, read in the beat's transaction (no commit of its own) and
     * handed to the dead-node sweep, which takes them.
     */
    private final AtomicReference<List<String>> suspects = new AtomicReference<>(List.of());
    /**
     * Leases the dead-node sweep ended that no rescue has taken yet: the rescue skips a row locked at that
     * moment too, so the next beats try again, up to one rescue interval, after which the periodic rescue
     * has had its turn anyway.
     */
    private int owedRescues;
    /** Until when the owed rescues are tried at each beat. */
    private long owedUntilNanos;
    /**
     * Whether this node, since it last became the leader, took over the dead nodes' remaining leases: set by
     * the dead-node sweep, cleared by a beat that finds the lease lost.
     */
    private volatile boolean adopted;
    /** Commands up to this id were sent before the node started, and are not for it. */
    private long startCommandId;
    /** Ids of the commands read lately: ids are handed out before commit, so a low one may appear late. */
    private final Set<Long> seen = Collections.newSetFromMap(new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
            return size() > 4 * COMMAND_WINDOW;
        }
    });

    /**
     * What the agent's thread does, each built once by the node.
     *
     * @param registry this node's row in the registry
     * @param leadership the leader lease
     * @param deadNodes the leader's dead-node sweep
     * @param pins the leader's pin sweep
     * @param pruner the leader's clean-up of stopped and dead nodes' rows
     */
    public record Parts(
            NodeRegistry registry, Leadership leadership, DeadNodeSweep deadNodes, PinSweep pins, NodePruner pruner) {

        /** Builds the parts on the node's storage, cluster statements, settings and pin policies. */
        public static Parts of(
                Storage storage, ClusterStore store, ErrandSettings settings, Map<String, PinPolicy> pinPolicies) {
            Duration timeout = settings.cluster().deadNodeTimeout();
            return new Parts(
                    new NodeRegistry(storage, store, settings),
                    new Leadership(storage, store, settings.nodeId(), settings.leaderLease()),
                    new DeadNodeSweep(storage, store, timeout, settings.nodeId()),
                    new PinSweep(storage, store, timeout, pinPolicies),
                    new NodePruner(storage, store));
        }
    }

    /**
     * Creates the agent of a node.
     *
     * @param storage the node's storage
     * @param store the cluster tables' statements
     * @param settings the node's settings
     * @param commandSignal the signal that command notifications fire
     * @param parts the registry, the leader lease and the leader's sweeps
     */
    public NodeAgent(
            Storage storage, ClusterStore store, ErrandSettings settings, QueueSignal commandSignal, Parts parts) {
        this.storage = storage;
        this.store = store;
        this.settings = settings;
        this.registry = parts.registry();
        this.leadership = parts.leadership();
        this.deadNodes = parts.deadNodes();
        this.commandSignal = commandSignal;
        this.pins = parts.pins();
        this.pruner = parts.pruner();
    }

    /** The statements on the cluster tables, for the admin API. */
    public ClusterStore store() {
        return store;
    }

    /**
     * Registers the node, reads the queue controls (so that a paused queue never sees a claim), and
     * starts the agent's thread.
     *
     * @return the queue controls as they are now
     */
    public synchronized List<ControlRow> start(Hooks hooks, boolean processing) throws SQLException {
        this.hooks = hooks;
        // The lease is tried at registration too: a lone node leads (fires schedules, prunes) at once, not
        // one heartbeat interval later.
        boolean[] leads = new boolean[1];
        List<ControlRow> controls = storage.transactions().run("node registration", c -> {
            registry.register(c, processing);
            leads[0] = leadership.hold(c);
            lastCommandId = store.lastCommandId(c);
            startCommandId = lastCommandId;
            hooks.applyKindControls(store.kinds().controls(c));
            return store.controls(c);
        });
        leadership.settle(leads[0]);
        running = true;
        commands = Executors.newSingleThreadExecutor(runnable -> daemon(runnable, "commands"));
        thread = daemon(this::run, "node");
        thread.start();
        log.info(
                "Node {} registered (groups {}, exclusive {}, processing {})",
                settings.nodeId(),
                settings.cluster().groups(),
                settings.cluster().exclusive(),
                processing);
        return controls;
    }

    /** Stops the thread, gives the leader lease up and marks the node's row as stopped. */
    public synchronized void stop() {
        if (!running) {
            return;
        }
        running = false;
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        commands.shutdown();
        try {
            leadership.release();
            storage.transactions().runStatement("node stop", c -> {
                registry.markStopped(c);
                return null;
            });
        } catch (SQLException e) {
            log.warn(
                    "Could not mark node {} as stopped ({}); the leader will declare it dead after {}",
                    settings.nodeId(),
                    e.getMessage(),
                    settings.cluster().deadNodeTimeout());
        }
    }

    /** The signal that makes the agent read commands at once. */
    public QueueSignal commandSignal() {
        return commandSignal;
    }

    /** Whether this node held the leader lease at its last try. */
    public boolean leading() {
        return leadership.leading();
    }

    private void run() {
        long interval = settings.heartbeatInterval().toNanos();
        // Every node tries the leader lease four times a lease, so that a dead leader is replaced within about 1.25
        // leases, much sooner than the heartbeat's dead-node timeout.
        long leaseInterval = settings.leaderLease().toNanos() / 4;
        // Registration wrote the first heartbeat and tried the lease.
        long nextBeat = System.nanoTime() + interval;
        long nextLeaseTry = System.nanoTime() + leaseInterval;
        while (running) {
            try {
                boolean beat = System.nanoTime() - nextBeat >= 0;
                if (beat) {
                    nextBeat = System.nanoTime() + interval;
                    // The beat's transaction tries the lease too.
                    nextLeaseTry = System.nanoTime() + leaseInterval;
                }
                pollCommands(beat);
                if (beat) {
                    heartbeatOutage.succeeded();
                } else if (System.nanoTime() - nextLeaseTry >= 0) {
                    nextLeaseTry = System.nanoTime() + leaseInterval;
                    tryLease();
                }
                long wake = Math.min(nextBeat, nextLeaseTry) - System.nanoTime();
                commandSignal.await(Duration.ofNanos(Math.max(1_000_000, wake)));
            } catch (InterruptedException e) {
                return;
            } catch (SQLException failure) {
                // One WARN per outage, not one per beat: the other engine threads report the same outage.
                heartbeatOutage.failed("node " + settings.nodeId(), failure);
                sleep(Duration.ofMillis(
                        Math.min(1_000, settings.heartbeatInterval().toMillis())));
            } catch (Throwable failure) {
                // Nothing may end this thread: without it the node would look dead and lose its work.
                log.warn("Node {}: cluster heartbeat failed; trying again", settings.nodeId(), failure);
                sleep(Duration.ofMillis(
                        Math.min(1_000, settings.heartbeatInterval().toMillis())));
            }
        }
    }

    /** Takes or renews the leader lease in a statement of its own, between heartbeats. */
    private void tryLease() throws SQLException {
        boolean leads = storage.transactions().runStatement("leader lease", leadership::hold);
        leadership.settle(leads);
        if (!leads) {
            adopted = false;
        }
    }

    /**
     * What one beat's transaction read: whether this node leads now, the nodes it suspects dead as leader,
     * and the new commands.
     */
    private record Beat(boolean leads, List<String> suspects, List<CommandRow> commands) {}

    /**
     * Reads the commands; on a beat, in the same transaction, moves the heartbeat on and takes or renews
     * the leader lease (and, as leader, deletes old commands and reads the heartbeats of the others): one
     * commit whatever the node's role. The two writes come last, just before the commit: a node stalled
     * inside this transaction (SIGSTOP, a long pause) holds their rows locked, and the shorter that window,
     * the rarer the stall that delays its own dead-node sweep or another node's takeover of the lease.
     */
    private void pollCommands(boolean beat) throws SQLException {
        boolean processing = hooks.processing();
        boolean ledBefore = leadership.leading();
        Beat read = storage.transactions().run("node heartbeat", c -> {
            List<CommandRow> commands = store.commandsAfter(c, Math.max(0, lastCommandId - COMMAND_WINDOW));
            if (!beat) {
                return new Beat(false, List.of(), commands);
            }
            List<String> suspects = List.of();
            if (ledBefore) {
                // Chores of the leader it was at its last try; they are dropped below if it no longer is.
                store.deleteCommandsOlderThan(c, Micros.of(COMMAND_RETENTION));
                suspects = deadNodes.suspects(c);
            }
            registry.heartbeat(c, processing);
            boolean leads = leadership.hold(c);
            return new Beat(leads, leads ? suspects : List.of(), commands);
        });
        if (beat) {
            leadership.settle(read.leads());
            if (!read.leads()) {
                adopted = false;
            }
            suspects.set(read.suspects());
        }
        List<CommandRow> rows = read.commands();
        for (CommandRow row : rows) {
            if (row.id() <= startCommandId || !seen.add(row.id())) {
                continue;
            }
            lastCommandId = Math.max(lastCommandId, row.id());
            if (targetsThisNode(row)) {
                execute(row.command());
            }
        }
    }

    private boolean targetsThisNode(CommandRow row) {
        if (row.targetNode() != null) {
            return row.targetNode().equals(settings.nodeId());
        }
        return row.targetGroup() == null || settings.cluster().groups().contains(row.targetGroup());
    }

    private void execute(String command) throws SQLException {
        log.info("Node {} received command '{}'", settings.nodeId(), command);
        switch (command) {
            case "repoll" -> hooks.repoll();
            case "reload" -> {
                hooks.applyControls(storage.transactions().runStatement("queue controls", store::controls));
                hooks.applyKindControls(storage.transactions().runStatement("kind controls", store.kinds()::controls));
            }
            // Stopping waits for running tasks: never on this thread, whose heartbeats keep the node alive.
            case "stop" -> commands.execute(hooks::stopProcessing);
            case "start" -> commands.execute(hooks::startProcessing);
            default -> log.warn("Node {} ignores unknown command '{}'", settings.nodeId(), command);
        }
    }

    /**
     * The dead-node sweep, a leader duty (every heartbeat interval): declares dead the nodes that the leader's
     * last beat found silent, ends their leases and rescues them now, in transactions of their own (none, on
     * most runs: no write). Does nothing while the agent does not run or this node does not lead.
     */
    public void sweepDeadNodes() throws SQLException {
        if (!running || !leadership.leading()) {
            return;
        }
        if (!adopted) {
            deadNodes.adoptUnreleased();
            adopted = true;
        }
        DeadNodeSweep.Result result = deadNodes.declare(suspects.getAndSet(List.of()));
        if (result.endedLeases() > 0) {
            owedRescues += result.endedLeases();
            owedUntilNanos = System.nanoTime() + settings.rescueInterval().toNanos();
        }
        if (owedRescues > 0) {
            owedRescues -= hooks.rescueNow();
            if (owedRescues <= 0 || System.nanoTime() - owedUntilNanos >= 0) {
                owedRescues = 0;
            }
        }
    }

    /**
     * The pin sweep, a leader duty (every heartbeat interval): applies the kinds' pin policies to tasks pinned
     * to nodes that stayed away. Does nothing while the agent does not run or this node does not lead.
     */
    public void sweepPins() throws SQLException {
        if (!running || !leadership.leading()) {
            return;
        }
        pins.sweep(hooks);
    }

    /**
     * The node pruner, a leader duty (every prune interval): deletes the registry rows of nodes that stopped or
     * died longer ago than {@code retention} (the node retention, or the one set at run time). Does nothing while
     * the agent does not run or this node does not lead.
     */
    public void pruneNodes(Duration retention) throws SQLException {
        if (!running || !leadership.leading()) {
            return;
        }
        pruner.prune(retention);
    }

    private Thread daemon(Runnable runnable, String name) {
        Thread thread = new Thread(runnable, settings.threadNamePrefix() + name);
        thread.setDaemon(true);
        return thread;
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
