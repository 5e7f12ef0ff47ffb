package dev.errand.jpa.internal;

/**
 * An item a node has just claimed, or locked to settle.
 *
 * @param id the entity's id
 * @param attempt the number of the attempt, starting at 1
 * @param token the lease token that fences every later write of this attempt
 * @param owner the node that held the lease
 */
public record ClaimedItem(Object id, int attempt, long token, String owner) {}
