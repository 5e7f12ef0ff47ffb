package dev.errand.event;

import java.time.Instant;

/**
 * How many tasks wait for one event, and the oldest of them.
 *
 * @param event the event's name
 * @param waitingTasks how many waiting tasks have it among their open conditions
 * @param oldestTaskId the lowest id among them: the first enqueued
 * @param oldestCreatedAt when that task was enqueued, on the database clock
 */
public record EventWaiters(String event, long waitingTasks, long oldestTaskId, Instant oldestCreatedAt) {}
