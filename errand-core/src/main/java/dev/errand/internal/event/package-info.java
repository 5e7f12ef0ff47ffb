/**
 * Events: admitting a task with conditions at enqueue (consuming premature events) and triggering an event.
 * Both lock the event's stripe first, so that each sees the other's outcome. The SQL is in
 * {@link dev.errand.internal.event.EventStore}; the event admin API is here too.
 */
package dev.errand.internal.event;
