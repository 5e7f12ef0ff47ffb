package dev.errand.spi;

/**
 * A task a node has just claimed and holds the lease of.
 *
 * @param id the task's id
 * @param kind its kind
 * @param queue its queue
 * @param payloadJson its JSON payload, or {@code null}
 * @param attempt the number of the attempt about to run, starting at 1
 * @param maxAttempts the most attempts it may have
 * @param leaseToken the fencing token: every later write of this attempt must match it
 * @param links its batch and whether other tasks depend on it; {@link Links#NONE} for most tasks
 * @param trace the trace context stored when it was enqueued; {@link TraceContext#NONE} when none was
 */
public record ClaimedTask(
        long id,
        String kind,
        String queue,
        String payloadJson,
        int attempt,
        int maxAttempts,
        long leaseToken,
        Links links,
        TraceContext trace) {

    /** Requires the links and the trace; {@link Links#NONE} and {@link TraceContext#NONE} for a task with none. */
    public ClaimedTask {
        if (links == null) {
            throw new IllegalArgumentException("links must not be null; pass Links.NONE for a task in no workflow");
        }
        if (trace == null) {
            throw new IllegalArgumentException("trace must not be null; pass TraceContext.NONE for a task without one");
        }
    }

    /** A claimed task without a stored trace context. */
    public ClaimedTask(
            long id,
            String kind,
            String queue,
            String payloadJson,
            int attempt,
            int maxAttempts,
            long leaseToken,
            Links links) {
        this(id, kind, queue, payloadJson, attempt, maxAttempts, leaseToken, links, TraceContext.NONE);
    }

    /** A claimed task in no batch and with no dependents. */
    public ClaimedTask(
            long id, String kind, String queue, String payloadJson, int attempt, int maxAttempts, long leaseToken) {
        this(id, kind, queue, payloadJson, attempt, maxAttempts, leaseToken, Links.NONE);
    }

    /** Whether this attempt is the last one the task may have. */
    public boolean isLastAttempt() {
        return attempt >= maxAttempts;
    }

    /**
     * What finishing a task must update besides its own row.
     *
     * @param batchId the batch it belongs to, or 0 for none
     * @param hasDependents whether tasks wait for it to finish
     */
    public record Links(long batchId, boolean hasDependents) {

        /** No batch and no dependents. */
        public static final Links NONE = new Links(0, false);

        /** Whether finishing the task needs no more than its own row. */
        public boolean isNone() {
            return batchId == 0 && !hasDependents;
        }
    }
}
