/**
 * Outcomes: how an attempt ended ({@link dev.errand.internal.outcome.Ending}) and the one pure decision
 * of what follows it ({@link dev.errand.internal.outcome.OutcomePolicy}), apart from the writes that
 * carry it out.
 */
package dev.errand.internal.outcome;
