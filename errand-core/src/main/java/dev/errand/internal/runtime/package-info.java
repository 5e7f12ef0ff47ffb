/**
 * The node's background work: each periodic {@link dev.errand.internal.runtime.Duty} (name, interval, scope,
 * thread, body), the one {@link dev.errand.internal.runtime.DutyHost} that runs them, health problems
 * ({@code Problems}) and one log line per episode of a recovered failure ({@code Outage}).
 */
package dev.errand.internal.runtime;
