/**
 * Distributed processes on tasks and batches: the creation of a process and of each turn (batches written a chunk
 * at a time), the task that runs one batch, and the batch callback that analyses a turn.
 */
package dev.errand.internal.process;
