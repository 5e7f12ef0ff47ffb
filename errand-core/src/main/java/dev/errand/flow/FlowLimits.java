package dev.errand.flow;

/** The bounds of flow limits, and their checks, shared by every place that accepts one. */
public final class FlowLimits {

    /**
     * The highest concurrency limit. A claim of a limited kind locks the kind's free slots, one row each, so a
     * limit costs rows per claim; beyond this, run the kind unlimited and size the queues instead.
     */
    public static final int MAX_CONCURRENCY_LIMIT = 10_000;

    private FlowLimits() {}

    /**
     * Checks a concurrency limit.
     *
     * @param limit the limit
     * @param what what the limit is of, for the message, such as {@code "concurrencyLimit of kind 'x'"}
     * @return the limit
     * @throws IllegalArgumentException if outside 1 to {@link #MAX_CONCURRENCY_LIMIT}
     */
    public static int requireConcurrencyLimit(int limit, String what) {
        if (limit < 1 || limit > MAX_CONCURRENCY_LIMIT) {
            throw new IllegalArgumentException(what + " must be between 1 and " + MAX_CONCURRENCY_LIMIT + ", got "
                    + limit + "; to run the kind without a limit, do not set one (or remove the override)");
        }
        return limit;
    }
}
