/**
 * The cluster-wide chores that the leader does for all nodes: schedule firing and pruning
 * ({@link dev.errand.internal.chores.LeaderChores}).
 */
package dev.errand.internal.chores;
