package dev.errand.internal.schedule;

import dev.errand.schedule.MisfirePolicy;
import dev.errand.schedule.Schedule;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Which slots of a schedule fire now: pure, so that the misfire policies and daylight saving are tested
 * without a database. Slots from the stored next slot up to now fire, one task each, if they are within
 * the grace; older ones were missed (the cluster was down, or the schedule paused) and follow the
 * schedule's misfire policy.
 */
public final class Slots {

    /** How late a slot may fire and still count as on time. */
    public static final Duration GRACE = Duration.ofMinutes(1);

    /** The most on-time slots one firing takes, so that a tiny interval cannot stall a sweep. */
    static final int MAX_ON_TIME = 1_000;

    private Slots() {}

    /**
     * The slots to fire at {@code now}, oldest first.
     *
     * @param schedule the schedule's timing and misfire policy
     * @param next the stored next slot, which is due ({@code next <= now})
     */
    public static List<Instant> due(Schedule schedule, Instant next, Instant now) {
        Instant graceStart = now.minus(GRACE);
        List<Instant> slots = new ArrayList<>(missed(schedule, next, graceStart));
        Instant slot = next.isBefore(graceStart) ? schedule.nextSlotAfter(graceStart.minusNanos(1)) : next;
        while (!slot.isAfter(now) && slots.size() < MAX_ON_TIME) {
            slots.add(slot);
            slot = schedule.nextSlotAfter(slot);
        }
        return slots;
    }

    private static List<Instant> missed(Schedule schedule, Instant next, Instant graceStart) {
        if (!next.isBefore(graceStart) || schedule.misfire() == MisfirePolicy.SKIP) {
            return List.of();
        }
        int wanted = schedule.misfire() == MisfirePolicy.RUN_ONCE ? 1 : schedule.misfireLimit();
        // The latest missed slots, walking back from the grace; never before the stored next slot.
        List<Instant> latest = new ArrayList<>();
        Instant cursor = graceStart;
        while (latest.size() < wanted) {
            Instant slot = schedule.slotBefore(cursor).orElse(null);
            if (slot == null || slot.isBefore(next)) {
                break;
            }
            latest.add(slot);
            cursor = slot;
        }
        Collections.reverse(latest);
        return latest;
    }
}
