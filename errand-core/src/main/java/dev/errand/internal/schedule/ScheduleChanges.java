package dev.errand.internal.schedule;

import dev.errand.internal.schedule.ScheduleStore.Position;
import dev.errand.internal.schedule.ScheduleStore.Stored;
import dev.errand.schedule.MisfirePolicy;
import dev.errand.schedule.Schedule;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

/**
 * Declares, changes, pauses, resumes and removes schedules, each on the caller's transaction. A schedule may
 * have written its next slot's task ahead of the slot ({@link FireAhead}); a change that the task must
 * follow reaches it here, so that it takes effect from the next slot that has not come yet:
 *
 * <ul>
 *   <li>a new payload is written into that task;
 *   <li>a new timing, kind or queue, a pause and a removal take the task back (delete it), and the schedule
 *       writes its next slot again as the change says.
 * </ul>
 *
 * A task whose slot has come, or that a worker has claimed, is left alone: that slot runs as it was written.
 */
public final class ScheduleChanges {

    private final ScheduleStore schedules;
    private final SlotTasks slotTasks;
    private final FireAhead fireAhead;

    /**
     * Creates the changes.
     *
     * @param schedules the schedule table
     * @param slotTasks the tasks written for slots
     * @param fireAhead when a slot's task is written
     */
    public ScheduleChanges(ScheduleStore schedules, SlotTasks slotTasks, FireAhead fireAhead) {
        this.schedules = schedules;
        this.slotTasks = slotTasks;
        this.fireAhead = fireAhead;
    }

    /**
     * Adds a schedule or changes the one of the same name. A new timing starts from the first slot after
     * {@code now}; otherwise the next slot stays. Whether it is paused stays as it is, unless Errand paused it
     * because it could not read or fire it: the new definition replaces the one it paused for, so the schedule
     * fires again from the first slot after {@code now}.
     */
    public void upsert(Connection c, Schedule schedule, String payloadJson, Instant now) throws SQLException {
        Position first = startingAfter(schedule, now, null, null);
        if (schedules.insertIfAbsent(c, schedule, payloadJson, first)) {
            return;
        }
        Optional<Stored> current = schedules.find(c, schedule.name(), true);
        if (current.isEmpty()) {
            // Removed between the refused insert and the look-up: add it again.
            if (schedules.insertIfAbsent(c, schedule, payloadJson, first)) {
                return;
            }
            current = schedules.find(c, schedule.name(), true);
            if (current.isEmpty()) {
                throw new SQLException("Schedule '" + schedule.name() + "' was neither inserted nor found; it is"
                        + " being added and removed at the same time by other nodes");
            }
        }
        Stored before = current.get();
        boolean pausedByErrand = before.paused() && before.pause().reason() != null;
        Schedule old = before.timing();
        // A row this node cannot read has no timing to keep: the new one starts afresh.
        boolean sameTiming = old != null
                && !pausedByErrand
                && old.timing().equals(schedule.timing())
                && old.zone().equals(schedule.zone());
        boolean sameTask =
                sameTiming && old.kind().equals(schedule.kind()) && old.queue().equals(schedule.queue());
        Position position = before.position();
        if (!sameTask) {
            position = takeBack(c, before, now);
            if (!sameTiming) {
                position = startingAfter(schedule, now, position.lastRunAt(), position.priorRunAt());
            }
        } else if (position.hasTaskAhead(now)) {
            // Declared again at every start of every node: an update in place, never a take-back that would
            // make all the schedules write their next slots again at once.
            slotTasks.rewritePayload(c, schedule.name(), position.lastRunAt(), now, payloadJson);
        }
        schedules.update(c, schedule, payloadJson, position, pausedByErrand);
    }

    /** Stops a schedule firing, and takes back the task it wrote ahead; false if there is none of that name. */
    public boolean pause(Connection c, String name, Instant now) throws SQLException {
        Optional<Stored> current = schedules.find(c, name, true);
        if (current.isEmpty()) {
            return false;
        }
        return schedules.setPaused(c, name, true, takeBack(c, current.get(), now));
    }

    /**
     * Fires a paused schedule again from its next slot after {@code now}; the slots missed while paused follow
     * its misfire policy. A schedule that is not paused stays as it is. False if there is none of that name.
     *
     * @throws IllegalStateException if this node cannot read the schedule's row: it could not compute a slot,
     *     and the firing node would pause it again at once
     */
    public boolean resume(Connection c, String name, Instant now) throws SQLException {
        Optional<Stored> current = schedules.find(c, name, true);
        if (current.isEmpty()) {
            return false;
        }
        Stored stored = current.get();
        if (!stored.paused()) {
            return true;
        }
        if (!stored.readable()) {
            throw new IllegalStateException(stored.columns().problem() + ". It stays paused: fix it with"
                    + " errand.schedules().upsert(...), or remove it with errand.schedules().remove(...)");
        }
        Position position = stored.position();
        Instant next = resumeAt(stored, now);
        return schedules.setPaused(
                c,
                name,
                false,
                new Position(next, fireAhead.fireAt(name, next, now), position.lastRunAt(), position.priorRunAt()));
    }

    /** Removes a schedule and the task it wrote ahead; false if there is none of that name. */
    public boolean remove(Connection c, String name, Instant now) throws SQLException {
        Optional<Stored> current = schedules.find(c, name, true);
        if (current.isEmpty()) {
            return false;
        }
        takeBack(c, current.get(), now);
        return schedules.remove(c, name);
    }

    private Position startingAfter(Schedule schedule, Instant now, Instant lastRunAt, Instant priorRunAt) {
        Instant next = schedule.nextSlotAfter(now);
        return new Position(next, fireAhead.fireAt(schedule.name(), next, now), lastRunAt, priorRunAt);
    }

    /**
     * Deletes the task written ahead of its slot, if any, and returns the position in which that slot is
     * the next one to write again (at once: its time to be written has passed). Without such a task, or
     * when its slot has come meanwhile, the position stays.
     */
    private Position takeBack(Connection c, Stored stored, Instant now) throws SQLException {
        Position position = stored.position();
        String name = stored.name();
        if (!position.hasTaskAhead(now) || !slotTasks.takeBack(c, name, position.lastRunAt(), now)) {
            return position;
        }
        Instant slot = position.lastRunAt();
        return new Position(slot, fireAhead.fireAt(name, slot, now), position.priorRunAt(), null);
    }

    private static Instant resumeAt(Stored stored, Instant now) {
        // Slots missed while paused follow the misfire policy: keep the old next slot unless it is SKIP.
        Instant next = stored.position().nextRunAt();
        return stored.timing().misfire() == MisfirePolicy.SKIP || !next.isBefore(now)
                ? stored.timing().nextSlotAfter(now)
                : next;
    }
}
