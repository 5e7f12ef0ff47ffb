package dev.errand.node;

import dev.errand.config.ClusterSettings;
import dev.errand.config.Names;

/**
 * Which nodes a command is for: one node, every node of a group, or every node.
 *
 * @param nodeId the node's id, or null
 * @param group the group, or null
 */
public record NodeTarget(String nodeId, String group) {

    private static final NodeTarget ALL = new NodeTarget(null, null);

    /** The longest node id the registry stores. */
    public static final int MAX_NODE_ID_LENGTH = 200;

    /**
     * Checks that at most one of the two is set, and that the one set is a valid node id or group name, as
     * {@link #node(String)} and {@link #group(String)} check them.
     *
     * @throws IllegalArgumentException if both are set, or the one set is not valid
     */
    public NodeTarget {
        if (nodeId != null && group != null) {
            throw new IllegalArgumentException("A command targets one node or one group, not both; use"
                    + " NodeTarget.node(id), NodeTarget.group(name) or NodeTarget.all()");
        }
        if (nodeId != null) {
            Names.require("Node id", nodeId, MAX_NODE_ID_LENGTH);
        }
        if (group != null) {
            ClusterSettings.requireGroup(group);
        }
    }

    /**
     * The node with this id.
     *
     * @throws IllegalArgumentException if the id is null, blank, padded, longer than 200 characters or holds a
     *     control character
     */
    public static NodeTarget node(String nodeId) {
        return new NodeTarget(Names.require("Node id", nodeId, MAX_NODE_ID_LENGTH), null);
    }

    /**
     * Every node of this group.
     *
     * @throws IllegalArgumentException if the name is empty, padded, too long, or holds a comma or control
     *     character
     */
    public static NodeTarget group(String group) {
        return new NodeTarget(null, ClusterSettings.requireGroup(group));
    }

    /** Every node. */
    public static NodeTarget all() {
        return ALL;
    }
}
