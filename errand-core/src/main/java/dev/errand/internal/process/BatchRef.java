package dev.errand.internal.process;

/**
 * The payload of the task that runs one batch of a process.
 *
 * @param process the process id
 * @param turn the turn
 * @param batch the batch's number
 */
public record BatchRef(String process, int turn, int batch) {}
