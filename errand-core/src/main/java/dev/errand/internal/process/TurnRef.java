package dev.errand.internal.process;

/**
 * The payload of the task that analyses a turn: the COMPLETE callback of the turn's Errand batch.
 *
 * @param process the process id
 * @param turn the turn
 * @param relayed whether a node outside the process's node group passed it on to the group (it then runs
 *     wherever it is claimed, so that it cannot be passed on forever)
 */
public record TurnRef(String process, int turn, boolean relayed) {}
