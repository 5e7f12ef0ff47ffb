package dev.errand.internal.event;

import dev.errand.event.Triggered;
import dev.errand.internal.store.Dialect;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Triggers an event on a connection, in its transaction: a fixed number of set-based statements however
 * many tasks wait. It locks the event's stripe (so that a concurrent enqueue of a task waiting for it
 * either committed before and is seen, or waits and then finds the event premature), then the waiting
 * tasks in id order (so that two triggers that complete the same task's conditions run one after the
 * other and the second sees the first's deletions), releases those whose only open condition it is, and
 * deletes the fulfilled conditions. With no waiting task it stores the event as premature.
 */
public final class EventTrigger {

    private final EventStore events;
    private final Dialect dialect;
    private final String channel;

    /**
     * Creates the trigger.
     *
     * @param events the event tables
     * @param dialect for wake-ups that the database delivers on commit
     * @param channel the wake-up channel
     */
    public EventTrigger(EventStore events, Dialect dialect, String channel) {
        this.events = events;
        this.dialect = dialect;
        this.channel = channel;
    }

    /**
     * What a trigger did, and the queues whose workers to wake once it commits.
     *
     * @param triggered what it did
     * @param queues the queues of the tasks it fulfilled a condition of
     */
    public record Outcome(Triggered triggered, Set<String> queues) {}

    /** Triggers {@code event}; the caller owns the transaction. */
    public Outcome trigger(Connection c, String event) throws SQLException {
        events.lockStripes(c, List.of(event));
        List<String> waiting = events.lockWaiting(c, event);
        if (waiting.isEmpty()) {
            events.storePremature(c, event);
            return new Outcome(new Triggered(event, 0, 0, true), Set.of());
        }
        int released = events.releaseFulfilled(c, event);
        events.deleteConditions(c, event);
        Set<String> queues = new LinkedHashSet<>(waiting);
        if (released > 0) {
            for (String queue : queues) {
                dialect.notifyOnCommit(c, channel, queue);
            }
        }
        return new Outcome(new Triggered(event, waiting.size(), released, false), queues);
    }
}
