package dev.errand.config;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * A node's place in the cluster.
 *
 * @param groups the node groups it serves; tasks pinned to one of them may run here
 * @param exclusive whether it claims only tasks pinned to it or to its groups
 * @param deadNodeTimeout {@link Settings#DEAD_NODE_TIMEOUT}
 * @param startupDelay {@link Settings#STARTUP_DELAY}
 * @param minimumPollInterval {@link Settings#MINIMUM_POLL_INTERVAL}
 */
public record ClusterSettings(
        Set<String> groups,
        boolean exclusive,
        Duration deadNodeTimeout,
        Duration startupDelay,
        Duration minimumPollInterval) {

    /** The longest node group name (the task table's {@code node_group} column). */
    public static final int MAX_GROUP_LENGTH = 200;

    /** Copies the groups. */
    public ClusterSettings {
        groups = Set.copyOf(groups);
    }

    /**
     * Checks a node group name: 1 to 200 characters, not blank, no control characters, no comma (the
     * registry stores a node's groups as one comma-separated column).
     *
     * @return the name
     * @throws IllegalArgumentException saying what is wrong
     */
    public static String requireGroup(String group) {
        Names.require("Node group", group, MAX_GROUP_LENGTH);
        if (group.indexOf(',') >= 0) {
            throw new IllegalArgumentException("Node group must not contain a comma, got " + Names.echo(group));
        }
        return group;
    }

    /**
     * Checks a set of group names.
     *
     * @throws IllegalArgumentException if the collection is null, or a name is bad
     */
    public static Set<String> requireGroups(Collection<String> groups) {
        if (groups == null) {
            throw new IllegalArgumentException("nodeGroups must not be null; pass an empty list for no groups");
        }
        Set<String> checked = new LinkedHashSet<>();
        for (String group : groups) {
            checked.add(requireGroup(group));
        }
        if (String.join(",", checked).length() > 1_990) {
            throw new IllegalArgumentException(
                    "nodeGroups are too long together: the registry stores at most 1,990 characters of names");
        }
        return checked;
    }

    /** The groups framed by commas, {@code ",a,b,"}, or {@code ","} for none, as SQL matches them. */
    public String groupsFramed() {
        return groups.isEmpty()
                ? ","
                : "," + String.join(",", groups.stream().sorted().toList()) + ",";
    }
}
