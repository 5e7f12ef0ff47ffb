package dev.errand.internal.process;

/**
 * The payload of the task that analyses a turn: the COMPLETE callback of the turn's Errand batch.
 *
 * @param process the process id
 * @param turn the turn
 */
public record TurnRef(String process, int turn) {}
