/**
 * Events inside the engine: admitting a task with conditions at enqueue (consuming premature events) and
 * triggering an event. Both lock the event's stripe first, so that each sees the other's outcome; the SQL
 * is in {@link dev.errand.internal.store.EventStore}.
 */
package dev.errand.internal.event;
