package dev.errand.internal.store;

import java.time.Instant;
import java.util.List;

/**
 * What keeps a new task from running when due: the events it waits for, and its deadline.
 *
 * @param conditions the conditions, each with its own deadline or none
 * @param expiresAt an absolute deadline, or {@code null}
 * @param expiresInMicros a deadline in microseconds after the database's current time (clock offset
 *     included), or {@code null}
 */
public record TaskGate(List<NewCondition> conditions, Instant expiresAt, Long expiresInMicros) {

    /** No conditions and no deadline. */
    public static final TaskGate NONE = new TaskGate(List.of(), null, null);

    /** Copies the list. */
    public TaskGate {
        conditions = List.copyOf(conditions);
    }

    /** Whether there is nothing to wait for and no deadline. */
    public boolean isNone() {
        return conditions.isEmpty() && expiresAt == null && expiresInMicros == null;
    }

    /**
     * A condition about to be stored.
     *
     * @param event the event's name
     * @param expiresAt an absolute deadline, or {@code null}
     * @param expiresInMicros a deadline in microseconds after the database's current time, or {@code null}
     */
    public record NewCondition(String event, Instant expiresAt, Long expiresInMicros) {}
}
