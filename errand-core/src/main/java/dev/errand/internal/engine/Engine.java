package dev.errand.internal.engine;

import dev.errand.config.ErrandSettings;
import dev.errand.config.TimeLimits;
import dev.errand.internal.cluster.ClusterStore;
import dev.errand.internal.flow.FlowControl;
import dev.errand.internal.outcome.OutcomePolicy;
import dev.errand.internal.runtime.Duty;
import dev.errand.internal.runtime.Problems;
import dev.errand.internal.store.Expirations;
import dev.errand.internal.store.Storage;
import dev.errand.internal.wakeup.WakeUps;
import dev.errand.internal.workflow.BatchSweeper;
import dev.errand.node.NodeHealth;
import dev.errand.node.QueueActivity;
import dev.errand.spi.ClaimStrategy;
import dev.errand.spi.ClaimedTask;
import dev.errand.spi.TaskListener;
import dev.errand.task.FailureCause;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running side of one node: a {@link QueueWorker} per queue, the batched completer and the leases. It
 * wires each service with what that service needs and nothing more. Its periodic work (the lease heartbeat,
 * cancel delivery, rescue, expiry, cancel settling, batch callbacks) is a list of {@link #duties()} that the
 * node's {@code DutyHost} runs while the engine runs.
 */
public final class Engine {

    private static final Logger log = LoggerFactory.getLogger(Engine.class);

    /**
     * What the engine is built from.
     *
     * @param stores the task table, the transactions and the statements a task's path touches beside it
     * @param kinds the kinds this node runs
     * @param claimStrategy how pollers claim
     * @param settings the node's settings
     * @param shared what the node builds once and every engine it starts uses
     */
    public record Parts(
            Stores stores, Kinds kinds, ClaimStrategy claimStrategy, ErrandSettings settings, Shared shared) {}

    /**
     * What the node builds once for every engine it starts (an engine is built anew at each start after a
     * stop, its services with it).
     *
     * @param listener the application's listeners, as one
     * @param expirations the expiry statements
     * @param batches the sweep of batch callbacks that concurrent completions hid
     * @param flow the cluster-wide limits the claims keep
     */
    public record Shared(TaskListener listener, Expirations expirations, BatchSweeper batches, FlowControl flow) {}

    private final Storage storage;
    private final ErrandSettings settings;
    private final EngineStats stats;
    private final Problems problems = new Problems();
    private final LeaseKeeper leases;
    private final Completer completer;
    private final Claimer claimer;
    private final TaskRunner runner;
    private final Rescuer rescuer;
    private final Expirer expirer;
    private final BatchSweeper batches;
    private final CancelWatcher cancels;
    private final FlowControl flow;
    private final List<QueueWorker> workers = new CopyOnWriteArrayList<>();
    /** Workers replaced by a concurrency change, finishing their running tasks. */
    private final List<QueueWorker> retired = new CopyOnWriteArrayList<>();

    private Map<String, ClusterStore.ControlRow> controls = Map.of();
    private WakeUps wakeUps;
    private boolean stopping;

    /** Wires the engine; nothing runs until {@link #start(WakeUps)}. */
    public Engine(Parts parts) {
        Stores stores = parts.stores();
        this.storage = stores.storage();
        this.settings = parts.settings();
        this.stats = new EngineStats(storage.transactions()::lockConflictRetries);
        Observers observers =
                new Observers(stats, parts.shared().listener(), parts.kinds().tracing());
        this.leases = new LeaseKeeper(storage, settings.nodeId());
        this.completer = new Completer(
                stores,
                new Completer.Batching(
                        settings.completionFlushInterval(),
                        settings.completionBatchSize(),
                        parts.shared().flow()::freesSlot),
                leases,
                observers,
                problems);
        OutcomeWriter writer = new OutcomeWriter(
                stores,
                new ErrorTexts(parts.kinds().codec(), settings.nodeId()),
                observers,
                parts.kinds().codec(),
                new AttemptRecorder(storage, stores.attempts(), settings.historyStackTraceLimit()));
        Settler settler = new Settler(
                new OutcomePolicy(() -> ThreadLocalRandom.current().nextDouble()), writer, parts.kinds(), leases);
        this.claimer = new Claimer(
                storage,
                parts.claimStrategy(),
                leases,
                observers,
                parts.shared().flow());
        this.flow = parts.shared().flow();
        RunningAttempts running = new RunningAttempts();
        this.runner = new TaskRunner(
                parts.kinds(), stores, new TaskRunner.Enders(settler, leases, completer, writer), observers, running);
        this.cancels = new CancelWatcher(stores, running);
        this.rescuer = new Rescuer(storage, parts.kinds(), settler, observers);
        this.expirer = new Expirer(stores, parts.shared().expirations(), parts.kinds(), writer);
        this.batches = parts.shared().batches();
    }

    /**
     * The duties of a processing node, bound to this engine's services, for the node's {@code DutyHost} to run
     * while the engine runs: the lease heartbeat and cancel delivery on a thread of their own (a slow rescue
     * sweep, which runs failure callbacks, must never delay them long enough for this node's own leases to
     * expire), and the sweeps that recover what a crash or a race left, on the maintenance thread.
     */
    public List<Duty> duties() {
        Duration beat = settings.heartbeatInterval();
        Duration sweep = settings.rescueInterval();
        return List.of(
                new Duty("heartbeat", beat, Duty.Scope.EVERY_NODE, "heartbeat", leases::heartbeat),
                new Duty("cancel delivery", beat, Duty.Scope.EVERY_NODE, "heartbeat", cancels::deliver),
                new Duty("rescue", sweep, Duty.Scope.EVERY_NODE, "maintenance", rescuer::sweep),
                new Duty("cancel settling", sweep, Duty.Scope.EVERY_NODE, "maintenance", cancels::settle),
                new Duty("expiry", sweep, Duty.Scope.EVERY_NODE, "maintenance", expirer::sweep),
                new Duty("batch callbacks", sweep, Duty.Scope.EVERY_NODE, "maintenance", batches::sweep),
                new Duty("flow limits", beat, Duty.Scope.EVERY_NODE, "maintenance", flow::refresh));
    }

    /** What this engine has done so far. */
    public EngineStats stats() {
        return stats;
    }

    /** Whether the engine's threads can do their work. */
    public NodeHealth health() {
        return problems.health();
    }

    /** What each queue does on this node now; empty before {@link #start}. */
    public Map<String, QueueActivity> activity() {
        Map<String, QueueActivity> activity = new LinkedHashMap<>();
        for (QueueWorker worker : workers) {
            activity.put(worker.name(), new QueueActivity(worker.concurrency(), worker.executing(), worker.buffered()));
        }
        return activity;
    }

    /** Starts the pollers, workers and background jobs; the pollers wait on {@code wakeUps}. */
    public void start(WakeUps wakeUps) {
        start(wakeUps, List.of());
    }

    /**
     * Starts the pollers, workers and background jobs with the cluster-wide queue controls as they are
     * now, so that a paused queue never sees a claim; the pollers wait on {@code wakeUps}.
     */
    public synchronized void start(WakeUps wakeUps, List<ClusterStore.ControlRow> queueControls) {
        this.wakeUps = wakeUps;
        this.controls = byQueue(queueControls);
        flow.start();
        String threads = settings.threadNamePrefix();
        completer.start(threads);
        settings.queues().keySet().forEach(queue -> workers.add(startWorker(queue)));
        log.info(
                "Errand engine started on node {} with queues {}{}",
                settings.nodeId(),
                settings.queues(),
                settings.virtualThreads() ? ", handlers on virtual threads" : "");
    }

    private QueueWorker startWorker(String queue) {
        QueueConfig.Polling polling = new QueueConfig.Polling(
                settings.pollInterval(),
                settings.claimBatchSize(),
                settings.prefetch(),
                settings.leaseDuration(),
                settings.cluster());
        QueueWorker worker = new QueueWorker(
                new QueueConfig(
                        queue,
                        concurrency(queue),
                        polling,
                        settings.nodeId(),
                        new QueueConfig.Threads(settings.threadNamePrefix(), settings.virtualThreads())),
                claimer,
                runner,
                wakeUps.of(queue),
                problems);
        worker.tune(tuning(queue));
        worker.start();
        return worker;
    }

    private int concurrency(String queue) {
        ClusterStore.ControlRow control = controls.get(queue);
        return control != null && control.concurrency() != null
                ? control.concurrency()
                : settings.queues().get(queue);
    }

    private QueueWorker.Tuning tuning(String queue) {
        ClusterStore.ControlRow control = controls.get(queue);
        if (control == null) {
            return new QueueWorker.Tuning(false, settings.pollInterval(), settings.claimBatchSize());
        }
        return new QueueWorker.Tuning(
                control.paused(),
                control.pollIntervalMillis() != null
                        ? Duration.ofMillis(control.pollIntervalMillis())
                        : settings.pollInterval(),
                control.claimBatchSize() != null ? control.claimBatchSize() : settings.claimBatchSize());
    }

    private static Map<String, ClusterStore.ControlRow> byQueue(List<ClusterStore.ControlRow> rows) {
        Map<String, ClusterStore.ControlRow> map = new LinkedHashMap<>();
        rows.forEach(row -> map.put(row.queue(), row));
        return map;
    }

    /**
     * Applies changed cluster-wide queue controls: pauses, resumes, and new poll intervals and batch sizes
     * take effect at the next poll; a new concurrency replaces the queue's worker (the old one stops
     * claiming, gives back its unstarted tasks, and finishes its running ones in the background).
     */
    public synchronized void applyControls(List<ClusterStore.ControlRow> queueControls) {
        this.controls = byQueue(queueControls);
        if (wakeUps == null || stopping) {
            return;
        }
        for (QueueWorker worker : workers) {
            String queue = worker.name();
            if (worker.concurrency() != concurrency(queue)) {
                worker.stopClaiming();
                claimer.release(worker.drainUnstarted());
                retired.add(worker);
                workers.set(workers.indexOf(worker), startWorker(queue));
                log.info(
                        "Queue '{}' now runs {} tasks at once on node {}",
                        queue,
                        concurrency(queue),
                        settings.nodeId());
            } else {
                worker.tune(tuning(queue));
            }
        }
    }

    /** Runs one expiry sweep now; returns how many tasks it expired. */
    public int expireNow() throws SQLException {
        return expirer.sweep();
    }

    /**
     * Fails a pending task whose pinned node stayed away past its kind's pin policy, with the kind's
     * failure callback and the batch or workflow it belongs to moved on, as an expiry would.
     *
     * @return whether this node failed it (false when it was claimed or changed meanwhile)
     */
    public boolean failPinned(ClaimedTask task, FailureCause.PinnedNodeAbsent cause) {
        return expirer.failPinned(task, cause);
    }

    /** Runs one sweep of batch callbacks now; returns how many batches it checked. */
    public int sweepBatchesNow() throws SQLException {
        return batches.sweep();
    }

    /** Runs one rescue sweep now; returns how many tasks it rescued. */
    public int rescueNow() throws SQLException {
        return rescuer.sweep();
    }

    /**
     * Stops gracefully: stop claiming, release claimed tasks that have not started, wait for running
     * tasks up to {@code timeout}, flush completions. The node stops the engine's duties after it.
     *
     * @return true if every running task finished within the timeout
     */
    public boolean stop(Duration timeout) {
        synchronized (this) {
            // From here on a change of queue controls replaces no worker: none may start after this stop.
            stopping = true;
        }
        // At most about 73 years ahead, so that the deadline arithmetic on System.nanoTime() cannot overflow
        // (a timeout of ChronoUnit.FOREVER then waits as long as the JVM runs).
        long deadline = System.nanoTime() + Math.min(TimeLimits.nanosOf(timeout), Long.MAX_VALUE / 4);
        workers.forEach(QueueWorker::stopClaiming);
        List<ClaimedTask> unstarted = new ArrayList<>();
        workers.forEach(worker -> unstarted.addAll(worker.drainUnstarted()));
        claimer.release(unstarted);
        boolean finished = true;
        for (QueueWorker worker : workers) {
            finished &= worker.awaitRunning(deadline);
        }
        for (QueueWorker worker : retired) {
            finished &= worker.awaitRunning(deadline);
        }
        completer.stop(Math.max(1_000, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        log.info("Errand engine stopped on node {} ({})", settings.nodeId(), stats);
        return finished;
    }
}
