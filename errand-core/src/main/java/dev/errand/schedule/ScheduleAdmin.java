package dev.errand.schedule;

import dev.errand.enqueue.Enqueued;
import java.util.List;
import java.util.Optional;

/**
 * Schedules at run time, on whichever node: every change takes effect cluster-wide at the next firing,
 * without a restart. A database failure throws {@link dev.errand.error.ErrandException}.
 *
 * <p>A row that this node cannot read (an operator changed it with SQL into an invalid cron, an unknown zone,
 * an interval under a second...) is still listed and found, with the reason in {@link ScheduleInfo#problem()};
 * it can be paused, fixed with {@link #upsert} and removed, and it never stops the listing or the firing of
 * the others. The methods that take a name take any name a row can hold, including one written by SQL that
 * the {@link Schedule} builder would refuse, so that such a row can be reached too.
 */
public interface ScheduleAdmin {

    /** Every schedule, by name, including the rows this node cannot read (with their problem). */
    List<ScheduleInfo> list();

    /**
     * One schedule by its exact name.
     *
     * @throws IllegalArgumentException if the name is null or longer than {@value Schedule#MAX_NAME_LENGTH}
     *     characters (no row can hold it)
     */
    Optional<ScheduleInfo> find(String name);

    /**
     * Adds a schedule, or changes the one of the same name. A new timing (cron, interval or zone) starts
     * from the next slot after now; a change of payload, kind, queue or misfire policy keeps the next slot.
     * The change reaches the task already written ahead of the next slot, while that slot is still to come:
     * a new payload is written into it; a new timing, kind or queue deletes it, and the slot is written again.
     * Whether the schedule is paused stays as it is, except that a schedule Errand paused because it could not
     * read or fire its row (see {@link ScheduleInfo#problem()}) fires again, from the first slot after now:
     * the upsert replaces what it was paused for.
     * An invalid cron expression, an unknown zone or an interval under a second never get this far: the
     * {@link Schedule} builder refuses them.
     *
     * @throws IllegalArgumentException if the schedule is null, its kind is not registered on this node, its
     *     queue is not declared on this node, or its payload does not fit the kind's payload type (the checks
     *     of an enqueue)
     */
    void upsert(Schedule schedule);

    /**
     * Stops firing a schedule and deletes the task it wrote ahead of a slot still to come; returns false if
     * there is none of that name. The reason Errand paused it for, if any, stays.
     *
     * @throws IllegalArgumentException if the name is null or longer than {@value Schedule#MAX_NAME_LENGTH}
     *     characters
     */
    boolean pause(String name);

    /**
     * Fires a paused schedule again, from its next slot after now (the paused slots follow its misfire
     * policy), and clears the reason Errand paused it for; a schedule that is not paused stays as it is.
     * Returns false if there is none of that name.
     *
     * @throws IllegalArgumentException if the name is null or longer than {@value Schedule#MAX_NAME_LENGTH}
     *     characters
     * @throws IllegalStateException if this node cannot read the schedule's row (see
     *     {@link ScheduleInfo#problem()}): fix it with {@link #upsert}, which resumes it, or remove it
     */
    boolean resume(String name);

    /**
     * Removes a schedule: none of its future slots fires, including one whose task was written ahead. Returns
     * false if there is none of that name.
     *
     * @throws IllegalArgumentException if the name is null or longer than {@value Schedule#MAX_NAME_LENGTH}
     *     characters
     */
    boolean remove(String name);

    /**
     * Runs a schedule's task now, outside its slots: enqueues one task of the schedule's kind, queue and payload,
     * due at once. The schedule is not moved: its next slot stays where it was, and a paused schedule stays
     * paused (this runs it all the same). The task's unique key holds the schedule's name and the database's
     * current second ({@code schedule-now:<name>@<epoch second>}), so that two calls in the same second while
     * the first task has not ended (a double click) write one task; the second call returns it, deduplicated.
     * A row this node cannot read into a {@link Schedule} (see {@link ScheduleInfo#problem()}) runs too: its
     * kind, queue and payload columns are what it enqueues.
     *
     * @return the task written, or the one a call in the same second wrote; empty if there is no schedule of
     *     that name
     * @throws IllegalArgumentException if the name is null or longer than {@value Schedule#MAX_NAME_LENGTH}
     *     characters
     */
    Optional<Enqueued> runNow(String name);
}
