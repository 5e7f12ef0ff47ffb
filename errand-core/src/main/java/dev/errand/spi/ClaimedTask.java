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
 */
public record ClaimedTask(
        long id, String kind, String queue, String payloadJson, int attempt, int maxAttempts, long leaseToken) {

    /** Whether this attempt is the last one the task may have. */
    public boolean isLastAttempt() {
        return attempt >= maxAttempts;
    }
}
