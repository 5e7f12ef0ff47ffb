package dev.errand.internal.event;

import dev.errand.config.TimeLimits;
import dev.errand.error.ErrandException;
import dev.errand.event.Condition;
import dev.errand.event.EventAdmin;
import dev.errand.event.EventWaiters;
import dev.errand.event.PrematureEvent;
import dev.errand.event.Triggered;
import dev.errand.event.WaitingTask;
import dev.errand.internal.store.Jdbc;
import dev.errand.internal.store.Micros;
import dev.errand.internal.store.Storage;
import dev.errand.internal.wakeup.WakeUps;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

/** The event API on the event tables: checks the arguments, then triggers, lists or deletes. */
public final class JdbcEventAdmin implements EventAdmin {

    private static final int MAX_LIMIT = 10_000;

    private final Storage storage;
    private final EventStore events;
    private final EventTrigger trigger;
    private final WakeUps wakeUps;

    /**
     * Creates the API.
     *
     * @param storage the node's storage
     * @param events the statements on the event tables
     * @param trigger the statements of a trigger
     * @param wakeUps this node's pollers' signals, for wake-ups after a commit
     */
    public JdbcEventAdmin(Storage storage, EventStore events, EventTrigger trigger, WakeUps wakeUps) {
        this.storage = storage;
        this.events = events;
        this.trigger = trigger;
        this.wakeUps = wakeUps;
    }

    @Override
    public Triggered trigger(Connection connection, String event) {
        if (connection == null) {
            throw new IllegalArgumentException("connection must not be null: pass the connection of the"
                    + " transaction the event belongs to, or use trigger(event) without one");
        }
        Condition.requireEvent(event);
        try {
            boolean autoCommit = connection.getAutoCommit();
            EventTrigger.Outcome outcome = Jdbc.atomically(connection, c -> trigger.trigger(c, event));
            if (autoCommit) {
                outcome.queues().forEach(wakeUps::wake);
            }
            return outcome.triggered();
        } catch (SQLException e) {
            throw new ErrandException("triggerEvent", e);
        }
    }

    @Override
    public Triggered trigger(String event) {
        Condition.requireEvent(event);
        EventTrigger.Outcome outcome = run("triggerEvent", c -> trigger.trigger(c, event));
        outcome.queues().forEach(wakeUps::wake);
        return outcome.triggered();
    }

    @Override
    public List<WaitingTask> waiting(int limit) {
        requireLimit(limit);
        return run("waiting", c -> events.waiting(c, null, limit));
    }

    @Override
    public List<WaitingTask> waitingFor(String event, int limit) {
        Condition.requireEvent(event);
        requireLimit(limit);
        return run("waitingFor", c -> events.waiting(c, event, limit));
    }

    @Override
    public List<EventWaiters> waitingCounts(int limit) {
        requireLimit(limit);
        return run("waitingCounts", c -> events.waitingCounts(c, limit));
    }

    @Override
    public List<PrematureEvent> premature(int limit) {
        requireLimit(limit);
        return run("premature", c -> events.premature(c, limit));
    }

    @Override
    public boolean deletePremature(String event) {
        Condition.requireEvent(event);
        return run("deletePremature", c -> events.deletePremature(c, event));
    }

    @Override
    public int deletePrematureOlderThan(Duration age) {
        TimeLimits.requireDuration("age", age);
        return run("deletePrematureOlderThan", c -> events.deletePrematureOlderThan(c, Micros.ofAge(age)));
    }

    private <T> T run(String operation, Jdbc.ConnectionWork<T> work) {
        try {
            return storage.transactions().run(operation, work);
        } catch (SQLException e) {
            throw new ErrandException(operation, e);
        }
    }

    private static void requireLimit(int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT + ", got " + limit);
        }
    }
}
