package dev.errand.node;

/**
 * Counters of what one node's engine did since it started. Cheap to read; for logs, tests and metrics.
 */
public interface NodeStats {

    /** Tasks claimed by this node. */
    long claimed();

    /** Tasks this node completed successfully. */
    long succeeded();

    /** Attempts this node scheduled for retry (including retry-later requests). */
    long retried();

    /** Tasks this node marked failed for good. */
    long failed();

    /** Expired leases this node rescued. */
    long rescued();

    /** Writes that found the lease taken back and changed nothing. */
    long fencedOff();

    /** How many times a deadlock or lock timeout made one of Errand's own transactions run again. */
    long lockConflictRetries();
}
