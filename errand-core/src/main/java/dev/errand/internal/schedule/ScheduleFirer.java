package dev.errand.internal.schedule;

import dev.errand.config.ErrandSettings;
import dev.errand.enqueue.Enqueued;
import dev.errand.internal.store.NewTask;
import dev.errand.internal.store.ScheduleStore;
import dev.errand.internal.store.Storage;
import dev.errand.internal.store.TaskGate;
import dev.errand.internal.store.TaskInserter;
import dev.errand.schedule.Schedule;
import dev.errand.task.TaskDefinition;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the due slots of schedules into tasks. Every node runs it; each due schedule is locked by one of
 * them (FOR UPDATE SKIP LOCKED), which inserts the slots' tasks and moves the schedule's next slot on in
 * the same transaction. A node that dies in between rolls everything back, and the next firing, on any
 * node, takes the same slots: each slot fires exactly once.
 */
public final class ScheduleFirer {

    private static final Logger log = LoggerFactory.getLogger(ScheduleFirer.class);
    private static final int SCHEDULES_PER_SWEEP = 100;

    private final Storage storage;
    private final ScheduleStore schedules;
    private final TaskInserter inserter;
    private final Map<String, TaskDefinition<?>> kinds;
    private final ErrandSettings settings;
    private final FiringPace pace;

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
        this.inserter = storage.dialect().inserter(storage.tasks().table(), storage.dataSource());
        this.kinds = kinds;
        this.settings = settings;
        this.pace = new FiringPace(settings.scheduleFiringPercent());
    }

    /**
     * Fires the due slots of every due schedule, 100 schedules per transaction, so that thousands of
     * schedules on the same minute all fire within the sweep.
     *
     * @return how many tasks it enqueued
     */
    public int fire() throws SQLException {
        int enqueued = 0;
        int[] locked = new int[1];
        long started;
        do {
            started = System.nanoTime();
            enqueued += storage.transactions().run("fire schedules", c -> {
                Instant now = schedules.now(c, storage.offsetMicros());
                List<ScheduleStore.Stored> due = schedules.lockDue(c, now, SCHEDULES_PER_SWEEP);
                locked[0] = due.size();
                List<ScheduleStore.Advance> advances = new ArrayList<>(due.size());
                List<NewTask> tasks = new ArrayList<>(due.size());
                for (ScheduleStore.Stored schedule : due) {
                    fire(c, schedule, now, tasks, advances);
                }
                // One insert and one batch of updates for the whole transaction, whatever the number of
                // schedules: a round trip per schedule made 10,000 slots on one minute take seconds to fire.
                int created = 0;
                if (!tasks.isEmpty()) {
                    for (Enqueued task : inserter.insertAllKeyed(c, tasks, channel())) {
                        created += task.created() ? 1 : 0;
                    }
                }
                schedules.advanceAll(c, advances);
                return created;
            });
        } while (locked[0] == SCHEDULES_PER_SWEEP && pace.pauseAfter(System.nanoTime() - started));
        return enqueued;
    }

    /** Adds the due slots' tasks to {@code tasks} and the schedule's move to {@code advances}. */
    private void fire(
            Connection c,
            ScheduleStore.Stored due,
            Instant now,
            List<NewTask> tasks,
            List<ScheduleStore.Advance> advances)
            throws SQLException {
        Schedule schedule = due.timing();
        List<Instant> slots;
        Instant next;
        try {
            slots = Slots.due(schedule, due.nextRunAt(), now);
            next = schedule.nextSlotAfter(now);
        } catch (IllegalStateException noMoreSlots) {
            // One schedule that cannot fire again must not hold up the others: pause it and say so.
            schedules.setPaused(c, schedule.name(), true, now);
            log.error(
                    "Schedule '{}' has no slot after {} and is paused: {}",
                    schedule.name(),
                    now,
                    noMoreSlots.getMessage());
            return;
        }
        for (Instant slot : slots) {
            tasks.add(task(schedule, due.payloadJson(), slot));
        }
        Instant last = slots.isEmpty() ? due.lastRunAt() : slots.get(slots.size() - 1);
        advances.add(new ScheduleStore.Advance(schedule.name(), next, last));
        if (slots.isEmpty()) {
            log.info(
                    "Schedule '{}' skipped the slots it missed since {} (misfire policy SKIP)",
                    schedule.name(),
                    due.nextRunAt());
        }
    }

    private NewTask task(Schedule schedule, String payloadJson, Instant slot) {
        TaskDefinition<?> definition = kinds.get(schedule.kind());
        int maxAttempts = definition != null && definition.maxAttempts() != null
                ? definition.maxAttempts()
                : settings.defaultMaxAttempts();
        // The slot in the key too: a slot's task is written once even if a firing were repeated.
        String uniqueKey = "schedule:" + schedule.name() + "@" + slot.toEpochMilli();
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
