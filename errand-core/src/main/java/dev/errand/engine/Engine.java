package dev.errand.engine;

import dev.errand.ErrandSettings;
import dev.errand.claim.ClaimStrategy;
import dev.errand.json.PayloadCodec;
import dev.errand.store.ClaimedTask;
import dev.errand.store.Transactions;
import dev.errand.store.TaskStore;
import dev.errand.wakeup.WakeUps;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running side of one node: a {@link QueueWorker} per queue, the batched completer, a heartbeat
 * thread, and a maintenance thread for rescue and pruning. Built and driven by {@link dev.errand.Errand}.
 */
public final class Engine {

    private static final Logger log = LoggerFactory.getLogger(Engine.class);

    final DataSource dataSource;
    final Transactions transactions;
    final ErrandSettings settings;
    final TaskStore store;
    final ClaimStrategy claimStrategy;
    final Map<String, RegisteredKind> kinds;
    final PayloadCodec codec;
    final WakeUps wakeUps;
    final EngineStats stats = new EngineStats();
    final ErrorTexts errors;
    final LeaseKeeper leases;
    final Completer completer;
    final Outcomes outcomes;
    final TaskRunner runner;
    private final Rescuer rescuer;
    private final List<QueueWorker> workers = new ArrayList<>();
    private ScheduledExecutorService heartbeats;
    private ScheduledExecutorService maintenance;

    /** Everything the engine needs; {@link dev.errand.Errand} fills it in. */
    public record Parts(
            Transactions transactions,
            ErrandSettings settings,
            TaskStore store,
            ClaimStrategy claimStrategy,
            Map<String, RegisteredKind> kinds,
            PayloadCodec codec,
            WakeUps wakeUps) {}

    /** Wires the engine; nothing runs until {@link #start()}. */
    public Engine(Parts parts) {
        this.transactions = parts.transactions();
        this.dataSource = transactions.dataSource();
        this.settings = parts.settings();
        this.store = parts.store();
        this.claimStrategy = parts.claimStrategy();
        this.kinds = new LinkedHashMap<>(parts.kinds());
        this.codec = parts.codec();
        this.wakeUps = parts.wakeUps();
        this.errors = new ErrorTexts(codec, settings.nodeId());
        this.leases = new LeaseKeeper(transactions, store, settings);
        this.completer = new Completer(transactions, store, settings, leases, stats);
        this.outcomes = new Outcomes(transactions, store, settings, errors, stats);
        this.runner = new TaskRunner(this);
        this.rescuer = new Rescuer(this);
    }

    /** How many times a deadlock or lock timeout made one of Errand's own transactions run again. */
    public long lockConflictRetries() {
        return transactions.lockConflictRetries();
    }

    /** What this engine has done so far. */
    public EngineStats stats() {
        return stats;
    }

    /** Starts the pollers, workers and background jobs. */
    public void start() {
        completer.start();
        // Heartbeats get a thread of their own: a slow rescue sweep (it runs failure callbacks) must
        // never delay them long enough for this node's own leases to expire.
        heartbeats = singleThread("errand-heartbeat");
        maintenance = singleThread("errand-maintenance");
        every(heartbeats, settings.heartbeatInterval(), leases::heartbeat);
        every(maintenance, settings.rescueInterval(), rescuer::sweep);
        if (settings.succeededRetention() != null) {
            every(maintenance, settings.pruneInterval(), this::prune);
        }
        settings.queues().forEach((queue, concurrency) -> {
            QueueWorker worker = new QueueWorker(this, queue, concurrency);
            workers.add(worker);
            worker.start();
        });
        log.info("Errand engine started on node {} with queues {}", settings.nodeId(), settings.queues());
    }

    /** Runs one rescue sweep now; returns how many tasks it rescued. */
    public int rescueNow() {
        return rescuer.sweep();
    }

    /**
     * Stops gracefully: stop claiming, release claimed tasks that have not started, wait for running
     * tasks up to {@code timeout}, flush completions, then stop the background jobs.
     *
     * @return true if every running task finished within the timeout
     */
    public boolean stop(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        workers.forEach(QueueWorker::stopClaiming);
        List<ClaimedTask> unstarted = new ArrayList<>();
        workers.forEach(worker -> unstarted.addAll(worker.drainUnstarted()));
        release(unstarted);
        boolean finished = true;
        for (QueueWorker worker : workers) {
            finished &= worker.awaitRunning(deadline);
        }
        completer.stop(Math.max(1_000, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        if (heartbeats != null) {
            heartbeats.shutdownNow();
            maintenance.shutdownNow();
        }
        log.info("Errand engine stopped on node {} ({})", settings.nodeId(), stats);
        return finished;
    }

    /** Returns claimed tasks that never started to pending, without counting their attempt. */
    void release(List<ClaimedTask> unstarted) {
        if (unstarted.isEmpty()) {
            return;
        }
        long[] ids = unstarted.stream().mapToLong(ClaimedTask::id).toArray();
        long[] tokens = unstarted.stream().mapToLong(ClaimedTask::leaseToken).toArray();
        try {
            int released = transactions.runStatement("release", c -> store.release(c, ids, tokens));
            unstarted.forEach(task -> leases.forget(task.id()));
            log.info("Released {} claimed tasks that had not started", released);
        } catch (SQLException e) {
            log.warn("Could not release {} unstarted tasks ({}); their leases will expire and rescue will"
                    + " return them", ids.length, e.getMessage());
        }
    }

    private void prune() {
        try {
            long offset = TaskStore.micros(settings.clock().offset());
            int pruned = transactions.run("prune",
                    c -> store.pruneSucceeded(c, settings.succeededRetention(), offset));
            if (pruned > 0) {
                log.debug("Pruned {} succeeded tasks", pruned);
            }
        } catch (SQLException e) {
            log.warn("Pruning succeeded tasks failed: {}", e.getMessage());
        }
    }

    private static ScheduledExecutorService singleThread(String name) {
        return Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        });
    }

    private static void every(ScheduledExecutorService scheduler, Duration interval, Runnable job) {
        long millis = interval.toMillis();
        scheduler.scheduleWithFixedDelay(() -> {
            try {
                job.run();
            } catch (RuntimeException e) {
                log.error("Errand background job failed; it runs again in {} ms", millis, e);
            }
        }, millis, millis, TimeUnit.MILLISECONDS);
    }
}
