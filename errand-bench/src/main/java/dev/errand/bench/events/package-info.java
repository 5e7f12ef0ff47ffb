/**
 * Benchmarks of events: one trigger that releases many waiting tasks, a steady stream of "enqueue with a
 * condition, then trigger" pairs beside plain enqueues, and claim throughput beside a million waiting tasks.
 * Each scenario repeats its measurement inside one trial and alternates what it compares, so that a
 * machine whose speed drifts does not favour one side.
 */
package dev.errand.bench.events;
