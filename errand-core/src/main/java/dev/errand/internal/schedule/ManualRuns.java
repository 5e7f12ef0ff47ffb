package dev.errand.internal.schedule;

import dev.errand.config.ErrandSettings;
import dev.errand.enqueue.Enqueued;
import dev.errand.internal.store.NewTask;
import dev.errand.internal.store.Storage;
import dev.errand.internal.store.TaskGate;
import dev.errand.task.TaskDefinition;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A schedule's task run by hand, outside its slots: one task of the schedule's kind, queue and payload, due
 * now. Its unique key holds the database's second, so that a double click writes one task; the schedule's
 * position is not read or moved, so a paused schedule runs too and its next slot stays where it was.
 */
public final class ManualRuns {

    private final Storage storage;
    private final Map<String, TaskDefinition<?>> kinds;
    private final ErrandSettings settings;
    private final Consumer<String> wakeUp;

    /**
     * Creates the manual runs of a node.
     *
     * @param storage the task table
     * @param kinds the kinds this node registers, for their maximum attempts
     * @param settings the node's settings
     * @param wakeUp wakes this node's poller of a queue, after the commit
     */
    public ManualRuns(
            Storage storage, Map<String, TaskDefinition<?>> kinds, ErrandSettings settings, Consumer<String> wakeUp) {
        this.storage = storage;
        this.kinds = Map.copyOf(kinds);
        this.settings = settings;
        this.wakeUp = wakeUp;
    }

    /** The unique key of a manual run of a schedule in the second of {@code now}. */
    public static String key(String scheduleName, Instant now) {
        return "schedule-now:" + scheduleName + "@" + now.getEpochSecond();
    }

    /**
     * Inserts the task on the caller's connection.
     *
     * @return the new task, or the one a run in the same second already wrote and that has not ended
     */
    Enqueued insert(Connection c, ScheduleStore.Stored schedule, Instant now) throws SQLException {
        TaskDefinition<?> definition = kinds.get(schedule.columns().kind());
        int maxAttempts = definition != null && definition.maxAttempts() != null
                ? definition.maxAttempts()
                : settings.defaultMaxAttempts();
        NewTask task = new NewTask(
                schedule.columns().kind(),
                schedule.columns().queue(),
                schedule.payloadJson(),
                new NewTask.Placement(5, null, storage.offsetMicros(), maxAttempts, key(schedule.name(), now)),
                TaskGate.NONE);
        return storage.inserter().insert(c, task, settings.tablePrefix().value() + "task_ready");
    }

    /** Wakes this node's poller of the queue, once the task has committed. */
    void wake(String queue) {
        wakeUp.accept(queue);
    }
}
