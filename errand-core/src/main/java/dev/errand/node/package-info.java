/**
 * Nodes: what this node's engine has done, and the cluster of nodes — the registry, the leader, commands
 * to other nodes, cluster-wide queue controls, and the pin policy of tasks pinned to an absent node.
 */
package dev.errand.node;
