/**
 * Recurring tasks: a {@link dev.errand.schedule.Schedule} enqueues one task of its kind per slot of a cron
 * expression or a fixed interval, exactly once across the cluster; {@link dev.errand.schedule.ScheduleAdmin}
 * adds, changes, pauses, resumes and removes schedules at run time.
 */
package dev.errand.schedule;
