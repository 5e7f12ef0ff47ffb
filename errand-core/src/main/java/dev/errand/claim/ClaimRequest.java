package dev.errand.claim;

/**
 * What one claim asks for.
 *
 * @param queue the queue to claim from
 * @param limit the most tasks to claim (the free worker slots)
 * @param owner the claiming node's id, stored as {@code lease_owner}
 * @param leaseToken the fencing token stored on every claimed row
 * @param leaseMicros how long the lease lasts, in microseconds
 * @param clockOffsetMicros the test clock's offset, in microseconds (0 in production)
 */
public record ClaimRequest(
        String queue, int limit, String owner, long leaseToken, long leaseMicros, long clockOffsetMicros) {}
