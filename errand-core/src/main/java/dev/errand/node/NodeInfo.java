package dev.errand.node;

import java.time.Instant;
import java.util.Set;

/**
 * One node of the cluster, as the registry shows it.
 *
 * @param nodeId the node's id
 * @param groups the node groups it serves
 * @param state its state in the registry
 * @param alive whether it is {@link NodeState#RUNNING} and its heartbeat is younger than the dead-node
 *     timeout, on the database clock
 * @param processing whether it claims tasks now
 * @param exclusive whether it claims only tasks pinned to it or its groups
 * @param leader whether it holds the leader lease
 * @param times when it started, last sent a heartbeat, and stopped (null unless stopped)
 * @param process where it runs
 * @param runningTasks how many running tasks it holds the lease of now (a stopped or dead node may still hold
 *     some until their leases expire or are rescued)
 */
public record NodeInfo(
        String nodeId,
        Set<String> groups,
        NodeState state,
        boolean alive,
        boolean processing,
        boolean exclusive,
        boolean leader,
        Times times,
        Process process,
        long runningTasks) {

    /** Copies the groups. */
    public NodeInfo {
        groups = Set.copyOf(groups);
    }

    /**
     * When, on the database clock.
     *
     * @param startedAt when it last started
     * @param heartbeatAt its last heartbeat
     * @param stoppedAt when it stopped gracefully, or null
     */
    public record Times(Instant startedAt, Instant heartbeatAt, Instant stoppedAt) {}

    /**
     * Where it runs, for operators.
     *
     * @param host the host name, or null if unknown
     * @param pid the process id, or null if unknown
     * @param version the Errand version
     */
    public record Process(String host, Long pid, String version) {}
}
