package dev.errand.flow;

/**
 * A queue's cluster-wide concurrency limit and its use now, as {@link FlowAdmin#queueLimits()} reads them.
 *
 * @param queue the queue
 * @param concurrency its limit: declared by the nodes' settings ({@code ErrandBuilder.queueConcurrencyLimit}) and
 *     set at run time
 * @param slotsInUse how many of its tasks hold one of its slots now (are running under the limit)
 * @param waiting how many of its tasks are pending and due now
 */
public record QueueLimit(String queue, FlowLimit.Value concurrency, int slotsInUse, long waiting) {}
