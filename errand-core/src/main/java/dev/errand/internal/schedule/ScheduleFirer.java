package dev.errand.internal.schedule;

import dev.errand.config.ErrandSettings;
import dev.errand.config.Names;
import dev.errand.enqueue.Enqueued;
import dev.errand.internal.outcome.ErrorMessages;
import dev.errand.internal.schedule.ScheduleStore.Position;
import dev.errand.internal.store.NewTask;
import dev.errand.internal.store.Storage;
import dev.errand.internal.store.TaskGate;
import dev.errand.internal.store.TaskInserter;
import dev.errand.schedule.Schedule;
import dev.errand.task.TaskDefinition;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.time.zone.ZoneRulesProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the due slots of schedules into tasks. The leader runs it; each schedule whose time to write its
 * next slot has come ({@code fire_at}, up to the lookahead before the slot: see {@link FireAhead}) is locked
 * (FOR UPDATE SKIP LOCKED), and its slot's task is inserted, with {@code run_at} at the slot, in the same
 * transaction that moves the schedule on. A node that dies in between rolls everything back, and the next
 * firing, on any node, takes the same slots: each slot fires exactly once.
 */
public final class ScheduleFirer {

    private static final Logger log = LoggerFactory.getLogger(ScheduleFirer.class);
    private static final int SCHEDULES_PER_SWEEP = 100;

    /** The version of the JVM's time-zone rules, such as {@code 2024a}. */
    private static final String TZDATA = tzdataVersion();

    private final Storage storage;
    private final ScheduleStore schedules;
    private final TaskInserter inserter;
    private final Map<String, TaskDefinition<?>> kinds;
    private final ErrandSettings settings;
    private final FiringPace pace;
    private final FireAhead fireAhead;

    /**
     * Creates the firer.
     *
     * @param storage the task table and the transactions
     * @param schedules the schedule table
     * @param kinds the kinds this node registered, for their maximum attempts
     * @param settings the node's settings
     */
    public ScheduleFirer(
            Storage storage, ScheduleStore schedules, Map<String, TaskDefinition<?>> kinds, ErrandSettings settings) {
        this.storage = storage;
        this.schedules = schedules;
        this.inserter = storage.inserter();
        this.kinds = kinds;
        this.settings = settings;
        this.pace = new FiringPace(settings.scheduleFiringPercent());
        this.fireAhead = new FireAhead(settings.scheduleLookahead());
    }

    /**
     * Writes the slots of every schedule whose time to write them has come, 100 schedules per transaction,
     * pausing between full transactions as the firing share says.
     *
     * @return how many tasks it enqueued
     */
    public int fire() throws SQLException {
        int enqueued = 0;
        int[] locked = new int[1];
        long started;
        do {
            started = System.nanoTime();
            List<String> pausedNow = new ArrayList<>();
            enqueued += storage.transactions().run("fire schedules", c -> {
                pausedNow.clear();
                Instant now = schedules.now(c);
                List<ScheduleStore.Stored> due = schedules.lockDue(c, now, SCHEDULES_PER_SWEEP);
                locked[0] = due.size();
                Sweep sweep = new Sweep(new ArrayList<>(due.size()), new ArrayList<>(due.size()), pausedNow);
                for (ScheduleStore.Stored schedule : due) {
                    if (schedule.readable()) {
                        fire(c, schedule, now, sweep);
                    } else {
                        pause(c, schedule.name(), schedule.columns().problem(), sweep);
                    }
                }
                // One insert and one batch of updates for the whole transaction, whatever the number of
                // schedules: a round trip per schedule made 10,000 slots on one minute take seconds to fire.
                int created = 0;
                if (!sweep.tasks().isEmpty()) {
                    for (Enqueued task : inserter.insertAllKeyed(c, sweep.tasks(), channel())) {
                        created += task.created() ? 1 : 0;
                    }
                }
                schedules.advanceAll(c, sweep.advances());
                return created;
            });
            // Said once, after the pause committed: the paused schedule is not read again until it is changed.
            pausedNow.forEach(log::error);
        } while (locked[0] == SCHEDULES_PER_SWEEP && pace.pauseAfter(System.nanoTime() - started));
        return enqueued;
    }

    /**
     * What one firing transaction does: the tasks it writes, the schedules it moves on, and what it says of
     * the schedules it paused once it has committed.
     */
    private record Sweep(List<NewTask> tasks, List<ScheduleStore.Advance> advances, List<String> paused) {}

    /** Adds the due slots' tasks and the schedule's move to the sweep, or pauses a schedule that cannot fire. */
    private void fire(Connection c, ScheduleStore.Stored due, Instant now, Sweep sweep) throws SQLException {
        Schedule schedule = due.timing();
        Position position = due.position();
        // Ahead of its slot, the next slot alone is written; at or after it, every slot up to now, as the
        // misfire policy says.
        Instant horizon = position.nextRunAt().isAfter(now) ? position.nextRunAt() : now;
        List<Instant> slots;
        Instant next;
        try {
            slots = Slots.due(schedule, position.nextRunAt(), horizon);
            next = schedule.nextSlotAfter(horizon);
            if (next.isAfter(Schedule.LATEST)) {
                throw new IllegalStateException("Schedule '" + schedule.name() + "': its next slot " + next
                        + " is after " + Schedule.LATEST + ", the latest a schedule's row holds");
            }
        } catch (RuntimeException noMoreSlots) {
            // One schedule that cannot fire again (no slot left, a position out of range) must not hold up the
            // others: pause it and say why.
            pause(c, schedule.name(), ErrorMessages.summary(noMoreSlots), sweep);
            return;
        }
        Instant last = position.lastRunAt();
        Instant prior = position.priorRunAt();
        for (Instant slot : slots) {
            sweep.tasks().add(task(schedule, due.payloadJson(), slot));
            prior = last;
            last = slot;
        }
        sweep.advances()
                .add(new ScheduleStore.Advance(
                        schedule.name(),
                        new Position(next, fireAhead.fireAt(schedule.name(), next, horizon), last, prior)));
        if (slots.isEmpty()) {
            log.info(
                    "Schedule '{}' skipped the slots it missed since {} (misfire policy SKIP)",
                    schedule.name(),
                    position.nextRunAt());
        }
    }

    /**
     * Pauses a schedule that cannot fire, with the reason on its row, so that it is said once: a paused
     * schedule is not read again until it is resumed or changed. The reason names this node and its Java and
     * time-zone data, since in a mixed cluster another node may read the same row.
     */
    private void pause(Connection c, String name, String problem, Sweep sweep) throws SQLException {
        String reason = problem + " (paused by node " + settings.nodeId() + " on Java " + Runtime.version()
                + ", time-zone data " + TZDATA + "). Fix it with errand.schedules().upsert(...) or SQL and resume it,"
                + " or remove it";
        if (schedules.pauseFor(c, name, reason)) {
            sweep.paused()
                    .add("Schedule " + Names.echo(name) + " cannot fire and is paused; the others go on: " + reason);
        }
    }

    private static String tzdataVersion() {
        try {
            return ZoneRulesProvider.getVersions("UTC").lastKey();
        } catch (RuntimeException unknown) {
            return "unknown";
        }
    }

    private NewTask task(Schedule schedule, String payloadJson, Instant slot) {
        TaskDefinition<?> definition = kinds.get(schedule.kind());
        int maxAttempts = definition != null && definition.maxAttempts() != null
                ? definition.maxAttempts()
                : settings.defaultMaxAttempts();
        // The slot in the key too: a slot's task is written once even if a firing were repeated.
        String uniqueKey = SlotTasks.key(schedule.name(), slot);
        return new NewTask(
                schedule.kind(),
                schedule.queue(),
                payloadJson,
                new NewTask.Placement(5, slot, 0, maxAttempts, uniqueKey),
                TaskGate.NONE);
    }

    private String channel() {
        return settings.tablePrefix().value() + "task_ready";
    }
}
