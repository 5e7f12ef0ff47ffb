/**
 * Distributed processes on tasks and batches: the creation of a process and of each turn (batches written a chunk
 * at a time), the task that runs one batch, the batch callback that analyses a turn, their SQL
 * ({@code ProcessStore}) and the process admin API.
 */
package dev.errand.internal.process;
