/**
 * What the node's background work shares: health problems ({@code Problems}), one log line per episode of a
 * recovered failure ({@code Outage}), and the repeating jobs.
 */
package dev.errand.internal.runtime;
