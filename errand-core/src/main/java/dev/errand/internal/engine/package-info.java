/**
 * The engine of one node: pollers that claim due tasks, workers that run them, and the background jobs
 * that keep leases alive, flush completions and rescue lost work.
 */
package dev.errand.internal.engine;
