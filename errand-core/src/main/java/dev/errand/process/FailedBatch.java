package dev.errand.process;

/**
 * A batch that failed in a turn.
 *
 * @param turn the turn it failed in
 * @param batchNumber its number within the process
 * @param tries how many times it has run
 * @param nodeId the node that ran it, or {@code null} if its task ended without running it
 * @param error why it failed
 */
public record FailedBatch(int turn, int batchNumber, int tries, String nodeId, String error) {}
