package dev.errand.internal.node;

import dev.errand.config.ErrandSettings;
import dev.errand.internal.cluster.NodeAgent;
import dev.errand.internal.engine.Stores;
import dev.errand.internal.event.PrematureEventPruner;
import dev.errand.internal.flow.FlowControl;
import dev.errand.internal.history.HistoryPruner;
import dev.errand.internal.runtime.Duty;
import dev.errand.internal.schedule.ScheduleFirer;
import dev.errand.internal.store.Pruner;
import dev.errand.internal.workflow.BatchPruner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The duties one node does for the whole cluster, on the leader: declaring silent nodes dead and rescuing
 * their tasks, and applying the kinds' pin policies (every heartbeat interval, on a thread of their own, so
 * that neither waits for the agent's beats, a schedule or a prune), firing recurring schedules (every poll
 * interval, on a thread of its own so that a slow prune never delays a slot) and pruning finished tasks, the
 * attempt history, batches, premature events and the registry rows of stopped and dead nodes past their
 * retention (every prune interval; the node retention always has a value, so the node pruner is always there). A prune whose
 * retention is not set is not in the list.
 *
 * <p>Doing one twice is harmless (a leader change can briefly leave two nodes that think they lead): schedule
 * firing locks each schedule with SKIP LOCKED and writes each slot's task under a unique key, and the pruners
 * delete by id what they read. The leader only keeps the other nodes from repeating the same scans.
 */
final class LeaderDuties {

    private LeaderDuties() {}

    /** The leader's duties for these settings. */
    static List<Duty> of(
            Stores stores,
            ErrandSettings settings,
            NodeAgent agent,
            ScheduleFirer schedules,
            Pruner pruner,
            FlowControl flow) {
        List<Duty> duties = new ArrayList<>();
        Duration beat = settings.heartbeatInterval();
        duties.add(new Duty("dead-node sweep", beat, Duty.Scope.LEADER, "cluster", agent::sweepDeadNodes));
        duties.add(new Duty("pin sweep", beat, Duty.Scope.LEADER, "cluster", agent::sweepPins));
        duties.add(prune("node pruner", settings, agent::pruneNodes));
        duties.add(new Duty("scheduler", settings.pollInterval(), Duty.Scope.LEADER, "scheduler", schedules::fire));
        if (pruner.hasWork()) {
            duties.add(prune("pruner", settings, pruner::prune));
        }
        duties.add(prune("flow key slot pruner", settings, flow::pruneIdleKeySlots));
        if (settings.batchRetention() != null) {
            duties.add(prune(
                    "batch pruner",
                    settings,
                    new BatchPruner(stores.storage(), stores.workflows(), settings.batchRetention())::prune));
        }
        if (settings.historyEnabled()) {
            duties.add(prune(
                    "history pruner",
                    settings,
                    new HistoryPruner(stores.storage(), stores.attempts(), settings.historyRetention())::prune));
        }
        if (settings.prematureEventRetention() != null) {
            duties.add(prune(
                    "premature event pruner",
                    settings,
                    new PrematureEventPruner(stores.storage(), stores.events(), settings.prematureEventRetention())
                            ::prune));
        }
        return List.copyOf(duties);
    }

    private static Duty prune(String name, ErrandSettings settings, Duty.Body body) {
        return new Duty(name, settings.pruneInterval(), Duty.Scope.LEADER, "pruner", body);
    }
}
