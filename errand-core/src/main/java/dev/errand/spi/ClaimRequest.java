package dev.errand.spi;

/**
 * What one claim asks for.
 *
 * @param queue the queue to claim from
 * @param limit the most tasks to claim
 * @param owner the claiming node's id, stored as {@code lease_owner}
 * @param leaseToken the fencing token stored on every claimed row
 * @param leaseMicros how long the lease lasts, in microseconds
 * @param clockOffsetMicros the clock's offset, in microseconds (0 in production): add it to the
 *     database's time wherever "now" is meant
 */
public record ClaimRequest(
        String queue, int limit, String owner, long leaseToken, long leaseMicros, long clockOffsetMicros) {}
