package dev.errand.admin;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * The load on the queues at one moment.
 *
 * @param databaseTime the database's time of the read
 * @param queues due tasks per queue that has any
 * @param failed tasks in state {@code failed}
 * @param overdue pending tasks due for longer than the read's {@code overdueAfter}
 */
public record QueueLoads(Instant databaseTime, Map<String, QueueLoad> queues, long failed, long overdue) {

    /** Copies the map. */
    public QueueLoads {
        queues = Map.copyOf(queues);
    }

    /** The load of {@code queue}; zero when it has no due task. */
    public QueueLoad queue(String queue) {
        return queues.getOrDefault(queue, QueueLoad.NONE);
    }

    /**
     * The due tasks of one queue.
     *
     * @param due pending tasks whose {@code run_at} has passed: the queue's depth
     * @param lag how long the oldest of them has waited since its {@code run_at}; zero when none is due
     */
    public record QueueLoad(long due, Duration lag) {
        /** No due task. */
        public static final QueueLoad NONE = new QueueLoad(0, Duration.ZERO);
    }
}
