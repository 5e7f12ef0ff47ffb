package dev.errand.admin;

import dev.errand.task.TaskState;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every task counted by state, kind and queue, read in one statement.
 *
 * @param databaseTime the database's time of the read
 * @param counts tasks per state, kind and queue
 * @param leaseOwners the distinct nodes that hold running tasks
 */
public record TaskCounts(Instant databaseTime, List<Count> counts, List<String> leaseOwners) {

    /** Copies the lists. */
    public TaskCounts {
        counts = List.copyOf(counts);
        leaseOwners = List.copyOf(leaseOwners);
    }

    /** Tasks per state, over every kind and queue. */
    public Map<TaskState, Long> byState() {
        Map<TaskState, Long> states = new LinkedHashMap<>();
        counts.forEach(c -> states.merge(c.state(), c.count(), Long::sum));
        return states;
    }

    /**
     * The tasks of one state, kind and queue.
     *
     * @param state the state
     * @param kind the kind
     * @param queue the queue
     * @param count how many
     * @param due how many of them are pending with a {@code run_at} that has passed
     * @param overdue how many of them are pending and past their {@code run_at} by more than the read's
     *     {@code overdueAfter}
     * @param oldestDueLag how long the oldest due one has waited since its {@code run_at}; zero if none
     */
    public record Count(
            TaskState state, String kind, String queue, long count, long due, long overdue, Duration oldestDueLag) {}
}
