package dev.errand.config;

/**
 * The order in which a node claims the due tasks of a queue. Priority always comes first: a task of a better
 * (lower) priority is claimed before any of a worse one.
 */
public enum ClaimOrder {

    /**
     * The default: within a priority, the task that has been due longest first ({@code run_at}). The claim
     * reads the claim index in order and stops as soon as it has enough tasks.
     */
    DUE_FIRST,

    /**
     * Within a priority, the task with the fewest attempts so far first, then the one due longest, so that
     * tasks that keep failing and are retried do not hold back fresh ones of the same priority. It costs more
     * than {@link #DUE_FIRST}: the claim sorts every due task of the queue at each priority it reaches, instead
     * of reading the first few from the index (see docs/CONFIGURATION.md for the figures). Tasks of a kind
     * under a flow limit are claimed in this order too.
     */
    FEWEST_ATTEMPTS_FIRST
}
