package dev.errand.event;

import java.time.Instant;

/**
 * An event that was triggered while no task waited for it. The first task enqueued later with a
 * matching condition consumes it, and does not wait for that condition.
 *
 * @param event the event's name
 * @param firstTriggeredAt when it was first triggered, on the database's clock
 * @param lastTriggeredAt when it was last triggered
 * @param times how many times it was triggered before a task consumed it (it is stored once)
 */
public record PrematureEvent(String event, Instant firstTriggeredAt, Instant lastTriggeredAt, int times) {}
