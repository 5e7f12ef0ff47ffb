package dev.errand.internal.engine;

import dev.errand.config.ClusterSettings;
import java.time.Duration;

/**
 * What one queue's worker needs to know.
 *
 * @param name the queue
 * @param concurrency how many of its tasks run at once
 * @param polling how its poller claims
 * @param nodeId the node's id, the owner of the leases it takes
 * @param threads the prefix of its threads' names, and whether its handlers run on virtual threads
 */
record QueueConfig(String name, int concurrency, Polling polling, String nodeId, Threads threads) {

    /**
     * How its threads are made.
     *
     * @param namePrefix the prefix of the node's threads' names
     * @param virtualWorkers whether its handlers run on virtual threads
     */
    record Threads(String namePrefix, boolean virtualWorkers) {}

    /** The prefix of its threads' names. */
    String threadNamePrefix() {
        return threads.namePrefix();
    }

    /**
     * How a poller claims.
     *
     * @param interval the longest it sleeps without a wake-up
     * @param batchSize the most tasks one claim takes
     * @param prefetch the most claimed tasks it keeps waiting for a worker
     * @param lease the lease a claim sets
     * @param cluster which pinned tasks it may claim, its start-up delay and minimum poll interval
     */
    record Polling(Duration interval, int batchSize, int prefetch, Duration lease, ClusterSettings cluster) {}
}
