/**
 * The engine: pollers that claim due tasks, workers that run them, and the background jobs that keep
 * leases alive, flush completions and rescue lost work. Internal to Errand.
 */
package dev.errand.engine;
