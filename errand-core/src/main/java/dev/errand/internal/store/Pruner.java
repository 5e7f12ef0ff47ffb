package dev.errand.internal.store;

import dev.errand.config.ErrandSettings;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskState;
import java.sql.SQLException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes finished tasks past their retention: per final state, the node's retention, and for kinds that set
 * their own, theirs. The leader runs it as its "pruner" duty every prune interval; each batch deletes by id
 * what it read, so nodes that prune at once (a leader change, or every node without the registry) never
 * delete a row twice or block each other for long.
 */
public final class Pruner {

    private static final Logger log = LoggerFactory.getLogger(Pruner.class);
    private static final List<TaskState> FINAL = List.of(TaskState.SUCCEEDED, TaskState.FAILED, TaskState.CANCELLED);

    private final Storage storage;
    private final FinishedTasks finished;
    private final Map<TaskState, Duration> nodeRetention = new EnumMap<>(TaskState.class);
    private final Map<TaskState, Map<String, Duration>> kindRetention = new EnumMap<>(TaskState.class);

    /**
     * Creates the pruner.
     *
     * @param storage the task table and the transactions
     * @param finished the pruning statements
     * @param settings the node's retentions
     * @param definitions the kinds this node registered, for their own retentions
     */
    public Pruner(
            Storage storage,
            FinishedTasks finished,
            ErrandSettings settings,
            Map<String, TaskDefinition<?>> definitions) {
        this.storage = storage;
        this.finished = finished;
        if (settings.succeededRetention() != null) {
            nodeRetention.put(TaskState.SUCCEEDED, settings.succeededRetention());
        }
        if (settings.failedRetention() != null) {
            nodeRetention.put(TaskState.FAILED, settings.failedRetention());
        }
        if (settings.cancelledRetention() != null) {
            nodeRetention.put(TaskState.CANCELLED, settings.cancelledRetention());
        }
        definitions.forEach((kind, definition) -> definition.retentions().forEach((state, keep) -> kindRetention
                .computeIfAbsent(state, s -> new TreeMap<>())
                .put(kind, keep)));
    }

    /**
     * Deletes what is past its retention now; returns how many tasks.
     *
     * @param runTime retentions per final state set at run time for the whole cluster, over the node's own; the
     *     kinds' own retentions still win for their tasks
     */
    public int prune(Map<TaskState, Duration> runTime) throws SQLException {
        int pruned = 0;
        for (TaskState state : FINAL) {
            Map<String, Duration> kinds = kindRetention.getOrDefault(state, Map.of());
            for (Map.Entry<String, Duration> kind : kinds.entrySet()) {
                pruned += prune(
                        new FinishedTasks.Selection(state, Micros.ofAge(kind.getValue()), kind.getKey(), Set.of()));
            }
            Duration keep = runTime.getOrDefault(state, nodeRetention.get(state));
            if (keep != null) {
                pruned += prune(new FinishedTasks.Selection(state, Micros.ofAge(keep), null, kinds.keySet()));
            }
        }
        if (pruned > 0) {
            log.debug("Pruned {} finished tasks past their retention", pruned);
        }
        return pruned;
    }

    private int prune(FinishedTasks.Selection selection) throws SQLException {
        return finished.prune(storage.transactions(), selection);
    }
}
