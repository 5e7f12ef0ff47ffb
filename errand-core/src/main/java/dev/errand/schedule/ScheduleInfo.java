package dev.errand.schedule;

import java.time.Instant;

/**
 * A schedule as the database holds it now. A row that this node cannot read (changed by SQL into an invalid
 * cron, an unknown zone, an interval under a second...) is listed too, with its columns as they are and the
 * reason in {@link #problem()}, so that it can be found, fixed with {@link ScheduleAdmin#upsert} or removed.
 *
 * @param name the schedule's unique name
 * @param kind the kind of the tasks it enqueues
 * @param queue the queue of those tasks
 * @param timing the cron expression, or the interval as {@code every PT5M}; for an unreadable row, the
 *     {@code cron} column, else {@code every} and the {@code interval_ms} column, else {@code none}
 * @param zone the time zone of a cron expression, as stored
 * @param misfire the misfire policy, or {@code null} if the row holds none that this node knows
 * @param paused whether it fires no task until resumed
 * @param nextRunAt the next slot it will fire
 * @param lastRunAt the last slot it fired, or {@code null} if none yet
 * @param problem why it does not fire: the reason Errand paused it for, or what this node cannot read in the
 *     row; {@code null} when there is none (a schedule an operator paused has none)
 */
public record ScheduleInfo(
        String name,
        String kind,
        String queue,
        String timing,
        String zone,
        MisfirePolicy misfire,
        boolean paused,
        Instant nextRunAt,
        Instant lastRunAt,
        String problem) {}
