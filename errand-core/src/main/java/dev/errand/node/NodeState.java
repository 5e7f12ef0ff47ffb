package dev.errand.node;

/** A node's state in the registry. */
public enum NodeState {
    /** Started and not stopped; alive while its heartbeat is younger than the dead-node timeout. */
    RUNNING,
    /** Stopped gracefully. */
    STOPPED,
    /** Its heartbeat grew older than the dead-node timeout; the leader rescued the tasks it held. */
    DEAD
}
