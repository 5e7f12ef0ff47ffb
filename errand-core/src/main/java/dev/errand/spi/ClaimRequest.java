package dev.errand.spi;

import java.util.List;

/**
 * What one claim asks for.
 *
 * @param queue the queue to claim from
 * @param limit the most tasks to claim
 * @param owner the claiming node's id, stored as {@code lease_owner}; tasks pinned to this node id may be
 *     claimed
 * @param leaseToken the fencing token stored on every claimed row
 * @param leaseMicros how long the lease lasts, in microseconds
 * @param clockOffsetMicros the clock's offset, in microseconds (0 in production): add it to the
 *     database's time wherever "now" is meant
 * @param nodeGroups the node groups of the claiming node: tasks pinned to one of them may be claimed
 * @param exclusive whether to claim only tasks pinned to the node or its groups, never unpinned ones
 */
public record ClaimRequest(
        String queue,
        int limit,
        String owner,
        long leaseToken,
        long leaseMicros,
        long clockOffsetMicros,
        List<String> nodeGroups,
        boolean exclusive) {

    /** Copies the groups. */
    public ClaimRequest {
        nodeGroups = List.copyOf(nodeGroups);
    }

    /** A claim by a node of no group, not exclusive. */
    public ClaimRequest(
            String queue, int limit, String owner, long leaseToken, long leaseMicros, long clockOffsetMicros) {
        this(queue, limit, owner, leaseToken, leaseMicros, clockOffsetMicros, List.of(), false);
    }

    /** The node's groups framed by commas ({@code ",a,b,"}; {@code ","} for none), as claim SQL matches them. */
    public String nodeGroupsFramed() {
        return nodeGroups.isEmpty() ? "," : "," + String.join(",", nodeGroups) + ",";
    }
}
