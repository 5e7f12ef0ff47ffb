package dev.errand.internal.event;

import dev.errand.internal.store.TaskGate;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Admits a new task that has conditions: premature events that match consume their condition at once,
 * and the other conditions are stored. A task whose every condition was premature becomes pending before
 * its transaction commits, and never waits.
 */
public final class EventGate {

    private final EventStore events;

    /** Creates the gate on the event tables. */
    public EventGate(EventStore events) {
        this.events = events;
    }

    /**
     * Stores a new waiting task's conditions, on the connection that inserted it, in the same transaction.
     *
     * @param taskId the new task, inserted as waiting
     * @param gate its conditions
     * @return true if premature events fulfilled every condition and the task is pending now
     */
    public boolean admit(Connection c, long taskId, TaskGate gate) throws SQLException {
        List<String> names = new ArrayList<>(gate.conditions().size());
        gate.conditions().forEach(condition -> names.add(condition.event()));
        // After this, a trigger of any of these events waits for our commit, and we see all earlier ones.
        events.lockStripes(c, names);
        List<TaskGate.NewCondition> open = new ArrayList<>(gate.conditions().size());
        for (TaskGate.NewCondition condition : gate.conditions()) {
            if (!events.consumePremature(c, condition.event())) {
                open.add(condition);
            }
        }
        if (open.isEmpty()) {
            return events.releaseOne(c, taskId);
        }
        events.insertConditions(c, taskId, open);
        return false;
    }
}
