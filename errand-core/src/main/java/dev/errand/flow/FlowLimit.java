package dev.errand.flow;

/**
 * A kind's flow limits and their use now, as {@link FlowAdmin#limits()} reads them.
 *
 * @param kind the kind
 * @param concurrency its concurrency limit: at most this many of its tasks run at once across the cluster
 * @param perKey its per-key limit: at most this many of its tasks with one limit key run at once
 * @param slotsInUse how many of its tasks hold a slot now (are running under the limit)
 * @param waiting how many of its tasks are pending and due now: for a per-key limit, those with a key; most of
 *     them wait on the limit when the slots are all in use
 */
public record FlowLimit(String kind, Value concurrency, Value perKey, int slotsInUse, long waiting) {

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
}
