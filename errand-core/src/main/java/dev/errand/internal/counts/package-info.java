/**
 * The task counts stored for the whole cluster, so that dashboards read a snapshot instead of scanning the task
 * table on every refresh; one count at a time across the cluster.
 */
package dev.errand.internal.counts;
