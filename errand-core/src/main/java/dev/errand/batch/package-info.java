/**
 * Batches: groups of tasks enqueued together, with progress counters and callbacks that are tasks of their
 * own ({@link dev.errand.batch.BatchRequest}, {@link dev.errand.batch.BatchAdmin}).
 */
package dev.errand.batch;
