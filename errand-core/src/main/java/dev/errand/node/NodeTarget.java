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

    /** Checks that at most one of the two is set. */
    public NodeTarget {
        if (nodeId != null && group != null) {
            throw new IllegalArgumentException("A command targets one node or one group, not both; use"
                    + " NodeTarget.node(id), NodeTarget.group(name) or NodeTarget.all()");
        }
    }

    /**
     * The node with this id.
     *
     * @throws IllegalArgumentException if the id is blank, padded, too long or holds a control character
     */
    public static NodeTarget node(String nodeId) {
        return new NodeTarget(Names.require("Node id", nodeId, 200), null);
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
