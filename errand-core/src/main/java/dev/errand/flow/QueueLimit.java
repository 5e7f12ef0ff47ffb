package dev.errand.flow;

/**
 * A queue's cluster-wide limits and their use now, as {@link FlowAdmin#queueLimits()} reads them.
 *
 * @param queue the queue
 * @param concurrency its concurrency limit: declared by the nodes' settings ({@code
 *     ErrandBuilder.queueConcurrencyLimit}) and set at run time
 * @param rate its rate limit: declared by the nodes' settings ({@code ErrandBuilder.queueRateLimit}) and set at run
 *     time
 * @param slotsInUse how many of its tasks hold one of its concurrency slots now (are running under the limit)
 * @param startsInWindow how many of its tasks started within the last period of its rate limit in force (0 without
 *     one)
 * @param waiting how many of its tasks are pending and due now
 */
public record QueueLimit(
        String queue,
        FlowLimit.Value concurrency,
        FlowLimit.Rate rate,
        int slotsInUse,
        int startsInWindow,
        long waiting) {}
