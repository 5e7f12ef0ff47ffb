package dev.errand.schedule;

/**
 * What a schedule does with slots that passed while no node could fire them (the whole cluster was down,
 * or the schedule was paused), that is slots older than the misfire grace ({@code ErrandBuilder.scheduleGrace}).
 * Slots within the grace always fire, one task each.
 */
public enum MisfirePolicy {
    /** Missed slots are dropped; the schedule goes on with its next slot. The default. */
    SKIP,
    /** All missed slots together fire one task, at once. */
    RUN_ONCE,
    /** Each missed slot fires its own task, the latest ones first up to the schedule's misfire limit. */
    RUN_ALL
}
