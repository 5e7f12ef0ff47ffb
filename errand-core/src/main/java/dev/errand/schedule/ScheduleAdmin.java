package dev.errand.schedule;

import java.util.List;
import java.util.Optional;

/**
 * Schedules at run time, on whichever node: every change takes effect cluster-wide at the next firing,
 * without a restart. A database failure throws {@link dev.errand.error.ErrandException}.
 */
public interface ScheduleAdmin {

    /** Every schedule, by name. */
    List<ScheduleInfo> list();

    /** One schedule by name. */
    Optional<ScheduleInfo> find(String name);

    /**
     * Adds a schedule, or changes the one of the same name. A new timing (cron, interval or zone) starts
     * from the next slot after now; a change of payload, kind, queue or misfire policy keeps the next slot.
     * The change reaches the task already written ahead of the next slot, while that slot is still to come:
     * a new payload is written into it; a new timing, kind or queue deletes it, and the slot is written again.
     * An invalid cron expression, an unknown zone or an interval under a second never get this far: the
     * {@link Schedule} builder refuses them.
     *
     * @throws IllegalArgumentException if the schedule is null or its kind is not registered on this node
     */
    void upsert(Schedule schedule);

    /**
     * Stops firing a schedule and deletes the task it wrote ahead of a slot still to come; returns false if
     * there is none of that name.
     */
    boolean pause(String name);

    /**
     * Fires a paused schedule again, from its next slot after now (the paused slots follow its misfire
     * policy); a schedule that is not paused stays as it is. Returns false if there is none of that name.
     */
    boolean resume(String name);

    /**
     * Removes a schedule: none of its future slots fires, including one whose task was written ahead. Returns
     * false if there is none of that name.
     */
    boolean remove(String name);
}
