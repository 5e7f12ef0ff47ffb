/**
 * Firing recurring schedules: {@link dev.errand.internal.schedule.ScheduleFirer} turns due slots into
 * tasks, once each across the cluster; {@link dev.errand.internal.schedule.Slots} decides which slots fire.
 */
package dev.errand.internal.schedule;
