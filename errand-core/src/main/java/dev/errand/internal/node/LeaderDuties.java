package dev.errand.internal.node;

import dev.errand.config.ErrandSettings;
import dev.errand.internal.cluster.NodeAgent;
import dev.errand.internal.cluster.RetentionControlStore;
import dev.errand.internal.engine.Stores;
import dev.errand.internal.event.PrematureEventPruner;
import dev.errand.internal.flow.FlowControl;
import dev.errand.internal.history.HistoryPruner;
import dev.errand.internal.runtime.Duty;
import dev.errand.internal.schedule.ScheduleFirer;
import dev.errand.internal.store.Pruner;
import dev.errand.internal.store.Transactions;
import dev.errand.internal.workflow.BatchPruner;
import dev.errand.node.Retention;
import dev.errand.task.TaskState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The duties one node does for the whole cluster, on the leader: declaring silent nodes dead and rescuing
 * their tasks, and applying the kinds' pin policies (every heartbeat interval, on a thread of their own, so
 * that neither waits for the agent's beats, a schedule or a prune), firing recurring schedules (every poll
 * interval, on a thread of its own so that a slow prune never delays a slot) and pruning finished tasks, the
 * attempt history, batches, premature events and the registry rows of stopped and dead nodes past their
 * retention (every prune interval). Each pruner is in the list even when its retention is not set, since a
 * retention can be set at run time for the whole cluster ({@code ClusterAdmin.changeRetention}); a run without
 * one reads the table of run-time retentions and deletes nothing.
 *
 * <p>Doing one twice is harmless (a leader change can briefly leave two nodes that think they lead): schedule
 * firing locks each schedule with SKIP LOCKED and writes each slot's task under a unique key, and the pruners
 * delete by id what they read. The leader only keeps the other nodes from repeating the same scans.
 */
final class LeaderDuties {

    private LeaderDuties() {}

    /**
     * The pruning the leader does: the finished tasks' pruner and the table of retentions changed at run time,
     * which every prune reads over the node's own settings.
     *
     * @param tasks the finished tasks' pruner
     * @param retentions the retentions changed at run time
     */
    record Prunes(Pruner tasks, RetentionControlStore retentions) {}

    /** The leader's duties for these settings. */
    static List<Duty> of(
            Stores stores,
            ErrandSettings settings,
            NodeAgent agent,
            ScheduleFirer schedules,
            Prunes prunes,
            FlowControl flow) {
        List<Duty> duties = new ArrayList<>();
        Duration beat = settings.heartbeatInterval();
        Transactions transactions = stores.storage().transactions();
        RetentionControlStore retentions = prunes.retentions();
        duties.add(new Duty("dead-node sweep", beat, Duty.Scope.LEADER, "cluster", agent::sweepDeadNodes));
        duties.add(new Duty("pin sweep", beat, Duty.Scope.LEADER, "cluster", agent::sweepPins));
        duties.add(prune(
                "node pruner",
                settings,
                retained(retentions, transactions, Retention.STOPPED_NODES, settings.nodeRetention(), retention -> {
                    agent.pruneNodes(retention);
                    return 0;
                })));
        duties.add(new Duty("scheduler", settings.pollInterval(), Duty.Scope.LEADER, "scheduler", schedules::fire));
        // Every retention can be set at run time, so each pruner is in the list whether or not the node set one.
        duties.add(prune("pruner", settings, () -> {
            Map<Retention, Duration> current = retentions.current(transactions);
            Map<TaskState, Duration> runTime = new EnumMap<>(TaskState.class);
            if (current.containsKey(Retention.FAILED_TASKS)) {
                runTime.put(TaskState.FAILED, current.get(Retention.FAILED_TASKS));
            }
            if (current.containsKey(Retention.CANCELLED_TASKS)) {
                runTime.put(TaskState.CANCELLED, current.get(Retention.CANCELLED_TASKS));
            }
            prunes.tasks().prune(runTime);
        }));
        duties.add(prune("flow key slot pruner", settings, flow::pruneIdleKeySlots));
        BatchPruner batches = new BatchPruner(stores.storage(), stores.workflows());
        duties.add(prune(
                "batch pruner",
                settings,
                retained(retentions, transactions, Retention.BATCHES, settings.batchRetention(), batches::prune)));
        if (settings.historyEnabled()) {
            HistoryPruner history = new HistoryPruner(stores.storage(), stores.attempts());
            duties.add(prune(
                    "history pruner",
                    settings,
                    retained(
                            retentions,
                            transactions,
                            Retention.ATTEMPT_HISTORY,
                            settings.historyRetention(),
                            history::prune)));
        }
        PrematureEventPruner events = new PrematureEventPruner(stores.storage(), stores.events());
        duties.add(prune(
                "premature event pruner",
                settings,
                retained(
                        retentions,
                        transactions,
                        Retention.PREMATURE_EVENTS,
                        settings.prematureEventRetention(),
                        events::prune)));
        return List.copyOf(duties);
    }

    /** One prune of something kept for a retention: what the cluster set at run time, else the node's own. */
    @FunctionalInterface
    private interface PruneOlderThan {
        int prune(Duration retention) throws Exception;
    }

    private static Duty.Body retained(
            RetentionControlStore retentions,
            Transactions transactions,
            Retention retention,
            Duration configured,
            PruneOlderThan pruner) {
        return () -> {
            Duration keep = RetentionControlStore.effective(retentions.current(transactions), retention, configured);
            if (keep != null) {
                pruner.prune(keep);
            }
        };
    }

    private static Duty prune(String name, ErrandSettings settings, Duty.Body body) {
        return new Duty(name, settings.pruneInterval(), Duty.Scope.LEADER, "pruner", body);
    }
}
