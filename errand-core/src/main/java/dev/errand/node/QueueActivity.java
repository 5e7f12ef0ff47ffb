package dev.errand.node;

/**
 * What one queue does on this node now. The database counts both {@code executing} and
 * {@code buffered} tasks as {@code running}: each holds a lease.
 *
 * @param concurrency how many of its tasks the node runs at once
 * @param executing claimed tasks whose handler is running
 * @param buffered claimed tasks waiting for a free worker (the prefetch buffer)
 */
public record QueueActivity(int concurrency, int executing, int buffered) {}
