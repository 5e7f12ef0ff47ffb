/**
 * Events: tasks that wait for named events before they may run, triggering those events, premature
 * events that arrive before anyone waits for them, and the deadlines of waiting tasks.
 *
 * <p>A task enqueued with {@link Condition}s is {@code waiting} and is never claimed. Triggering an event
 * ({@link dev.errand.Errand#triggerEvent(java.sql.Connection, String)}) fulfils the conditions of that name
 * of every waiting task, in one statement per table; a task whose last condition is fulfilled becomes
 * {@code pending} in the same transaction. An event triggered while no task waits for it is stored as
 * {@linkplain PrematureEvent premature}, and the next task enqueued with that condition consumes it.
 */
package dev.errand.event;
