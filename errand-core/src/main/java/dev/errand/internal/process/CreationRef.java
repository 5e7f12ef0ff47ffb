package dev.errand.internal.process;

/**
 * The payload of the task that creates a process on the cluster.
 *
 * @param process the process id
 */
public record CreationRef(String process) {}
