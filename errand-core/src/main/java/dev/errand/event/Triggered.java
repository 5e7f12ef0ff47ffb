package dev.errand.event;

/**
 * What triggering an event did, in the transaction that triggered it.
 *
 * @param event the event's name
 * @param fulfilledConditions how many waiting tasks had the event as a condition (each is fulfilled)
 * @param releasedTasks how many of those tasks had no other open condition and became pending
 * @param storedAsPremature whether no task waited for the event, so that it was stored for the next task
 *     enqueued with it as a condition
 */
public record Triggered(String event, int fulfilledConditions, int releasedTasks, boolean storedAsPremature) {}
