/**
 * Micrometer support: task counters and the execution timer fed by Errand's events, and queue gauges
 * computed with SQL.
 */
package dev.errand.spring.metrics;
