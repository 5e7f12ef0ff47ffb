package dev.errand.jpa.queue;

/**
 * What one node did in one entity queue since it was built.
 *
 * @param done items processed successfully: their processor ran and its transaction, which marked them
 *     {@code DONE}, committed
 * @param skipped claimed items this node did not process because, when a worker took them, their entity had
 *     been deleted or another node had taken them (its lease expired while the item waited and it was
 *     rescued); no processor ran and nothing was written
 * @param retried failed attempts followed by another one
 * @param failed items that failed for good
 * @param rescued items whose node was lost, retried or failed by this node
 */
public record QueueStats(long done, long skipped, long retried, long failed, long rescued) {}
