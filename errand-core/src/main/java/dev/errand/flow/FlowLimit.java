package dev.errand.flow;

/**
 * A kind's flow limits and their use now, as {@link FlowAdmin#limits()} reads them.
 *
 * @param kind the kind
 * @param concurrency its concurrency limit: at most this many of its tasks run at once across the cluster
 * @param perKey its per-key limit: at most this many of its tasks with one limit key run at once
 * @param rate its rate limit: at most this many of its tasks start in any window of the period
 * @param ratePerKey its per-key rate limit: at most this many of its tasks with one limit key start in any window
 *     of the period
 * @param slotsInUse how many of its tasks hold a slot now (are running under a concurrency or per-key limit), or,
 *     under a rate limit, how many starts the current window holds (under a per-key rate limit, over all keys)
 * @param waiting how many of its tasks are pending and due now: for a per-key limit, those with a key; most of
 *     them wait on the limit when the slots are all in use
 */
public record FlowLimit(
        String kind, Value concurrency, Value perKey, Rate rate, Rate ratePerKey, int slotsInUse, long waiting) {

    /**
     * One limit: what the kind's definition declares and what was set at run time.
     *
     * @param declared the limit the nodes' definitions declare, or null
     * @param override the limit set through {@link FlowAdmin}, which wins while set, or null
     */
    public record Value(Integer declared, Integer override) {

        /** The limit in force, or null for none. */
        public Integer inForce() {
            return override != null ? override : declared;
        }
    }

    /**
     * A rate limit, of the kind or of each of its keys: what the kind's definition declares and what was set at run
     * time.
     *
     * @param declared the rate limit the nodes' definitions declare, or null
     * @param override the rate limit set through {@link FlowAdmin#changeRateLimit} (or {@link
     *     FlowAdmin#changeRateLimitPerKey}), which wins while set, or null
     */
    public record Rate(RateLimit declared, RateLimit override) {

        /** The rate limit in force, or null for none. */
        public RateLimit inForce() {
            return override != null ? override : declared;
        }
    }
}
