package dev.errand.node;

import java.time.Duration;

/**
 * The cluster-wide controls of one queue: whether it is paused, and the run-time overrides of each
 * node's own settings (null keeps the node's own).
 *
 * @param queue the queue
 * @param paused whether no node claims from it
 * @param concurrency the workers per node, or null
 * @param pollInterval the poll interval, or null
 * @param claimBatchSize the most tasks per claim, or null
 */
public record QueueControl(
        String queue, boolean paused, Integer concurrency, Duration pollInterval, Integer claimBatchSize) {}
