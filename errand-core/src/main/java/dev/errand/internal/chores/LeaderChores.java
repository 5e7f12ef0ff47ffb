package dev.errand.internal.chores;

import dev.errand.config.ErrandSettings;
import dev.errand.internal.engine.Stores;
import dev.errand.internal.history.HistoryPruner;
import dev.errand.internal.runtime.Problems;
import dev.errand.internal.runtime.RepeatingJobs;
import dev.errand.internal.schedule.ScheduleFirer;
import dev.errand.internal.schedule.ScheduleStore;
import dev.errand.internal.store.Micros;
import dev.errand.internal.store.Storage;
import dev.errand.internal.workflow.BatchPruner;
import dev.errand.task.TaskDefinition;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster-wide chores that one node does for all: firing recurring schedules (every poll interval)
 * and pruning finished tasks, the attempt history and premature events past their retention (every
 * prune interval). They run on the node that holds the leader lease, whether or not it processes tasks;
 * on the other nodes each run is skipped. A node without the registry (no cluster tables) is its own
 * leader: every such node does them, as every node did before there was a leader.
 *
 * <p>Doing a chore twice is harmless (a leader change can briefly leave two nodes that think they lead):
 * schedule firing locks each schedule with SKIP LOCKED and writes each slot's task under a unique key,
 * and the pruners delete by id what they read. The leader only keeps the other nodes from repeating the
 * same scans.
 */
public final class LeaderChores {

    private static final Logger log = LoggerFactory.getLogger(LeaderChores.class);

    private final Storage storage;
    private final Stores stores;
    private final ErrandSettings settings;
    private final RepeatingJobs jobs;
    private final ScheduleFirer schedules;
    private final Pruner pruner;
    private Threads executors;

    /** The two threads: a slow prune must never delay a schedule's slot. */
    private record Threads(ScheduledExecutorService scheduler, ScheduledExecutorService pruning) {}

    /**
     * Wires the chores; nothing runs until {@link #start}.
     *
     * @param stores the task table, the transactions and the statements beside it
     * @param settings the node's settings: intervals and retentions
     * @param definitions the kinds this node registered, for their retentions and maximum attempts
     * @param problems where failures of a chore are reported, for the node's health
     */
    public LeaderChores(
            Stores stores, ErrandSettings settings, Map<String, TaskDefinition<?>> definitions, Problems problems) {
        this.storage = stores.storage();
        this.stores = stores;
        this.settings = settings;
        this.jobs = new RepeatingJobs(problems);
        this.schedules = new ScheduleFirer(
                storage,
                new ScheduleStore(storage.dialect(), settings.tablePrefix().scheduleTable()),
                definitions,
                settings);
        this.pruner = new Pruner(storage, settings, definitions);
    }

    /**
     * Starts the chores' threads; each run first asks {@code leading} and does nothing unless it says
     * this node leads. Calling it while they run has no effect.
     */
    public synchronized void start(BooleanSupplier leading) {
        if (executors != null) {
            return;
        }
        String threads = settings.threadNamePrefix();
        executors = new Threads(
                RepeatingJobs.singleThread(threads + "scheduler"), RepeatingJobs.singleThread(threads + "pruner"));
        every(executors.scheduler(), "scheduler", settings.pollInterval(), leading, schedules::fire);
        if (pruner.hasWork()) {
            every(executors.pruning(), "pruner", settings.pruneInterval(), leading, pruner::prune);
        }
        if (settings.batchRetention() != null) {
            every(
                    executors.pruning(),
                    "batch pruner",
                    settings.pruneInterval(),
                    leading,
                    new BatchPruner(storage, stores.workflows(), settings.batchRetention())::prune);
        }
        if (settings.historyEnabled()) {
            every(
                    executors.pruning(),
                    "history pruner",
                    settings.pruneInterval(),
                    leading,
                    new HistoryPruner(storage, stores.attempts(), settings.historyRetention())::prune);
        }
        if (settings.prematureEventRetention() != null) {
            every(
                    executors.pruning(),
                    "premature event pruner",
                    settings.pruneInterval(),
                    leading,
                    this::prunePrematureEvents);
        }
    }

    /** Stops the chores' threads; a chore that runs now is interrupted and its transaction rolled back. */
    public synchronized void stop() {
        if (executors != null) {
            executors.scheduler().shutdownNow();
            executors.pruning().shutdownNow();
            executors = null;
        }
    }

    private int prunePrematureEvents() throws SQLException {
        int pruned = storage.transactions().run("prune premature events", c -> stores.events()
                .deletePrematureOlderThan(c, Micros.ofAge(settings.prematureEventRetention()), storage.offsetMicros()));
        if (pruned > 0) {
            log.info("Deleted {} premature events older than {}", pruned, settings.prematureEventRetention());
        }
        return pruned;
    }

    /** A chore; it may fail with anything, and runs again at its next interval. */
    @FunctionalInterface
    private interface Chore {
        int run() throws Exception;
    }

    private void every(
            ScheduledExecutorService executor, String name, Duration interval, BooleanSupplier leading, Chore chore) {
        jobs.every(executor, name, interval, () -> {
            if (leading.getAsBoolean()) {
                chore.run();
            }
        });
    }
}
