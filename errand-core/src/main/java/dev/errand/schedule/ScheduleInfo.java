package dev.errand.schedule;

import java.time.Instant;

/**
 * A schedule as the database holds it now.
 *
 * @param name the schedule's unique name
 * @param kind the kind of the tasks it enqueues
 * @param queue the queue of those tasks
 * @param timing the cron expression, or the interval as {@code every PT5M}
 * @param zone the time zone of a cron expression
 * @param misfire the misfire policy
 * @param paused whether it fires no task until resumed
 * @param nextRunAt the next slot it will fire
 * @param lastRunAt the last slot it fired, or {@code null} if none yet
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
        Instant lastRunAt) {}
