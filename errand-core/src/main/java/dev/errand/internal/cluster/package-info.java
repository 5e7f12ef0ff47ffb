/**
 * The cluster side of a node: its row in the node registry and its heartbeat, the leader lease, the
 * leader's dead-node sweep, and the commands and queue controls that travel between nodes through the
 * database, with the audit of who changed the controls ({@code ControlAudit}); their SQL ({@code ClusterStore})
 * and the cluster admin API.
 */
package dev.errand.internal.cluster;
