package dev.errand.jpa.queue;

/**
 * What one node did in one entity queue since it was built.
 *
 * @param done items processed successfully
 * @param retried failed attempts followed by another one
 * @param failed items that failed for good
 * @param rescued items whose node was lost, retried or failed by this node
 */
public record QueueStats(long done, long retried, long failed, long rescued) {}
