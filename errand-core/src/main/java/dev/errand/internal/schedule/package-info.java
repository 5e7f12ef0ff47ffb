/**
 * Recurring schedules: {@link dev.errand.internal.schedule.ScheduleFirer} turns due slots into tasks, once
 * each across the cluster; {@link dev.errand.internal.schedule.Slots} decides which slots fire; their SQL
 * ({@code ScheduleStore}, {@code SlotTasks}) and the schedule admin API are here too.
 */
package dev.errand.internal.schedule;
