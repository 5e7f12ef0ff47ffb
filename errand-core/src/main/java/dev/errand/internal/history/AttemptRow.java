package dev.errand.internal.history;

import dev.errand.history.Attempt;
import dev.errand.history.AttemptOutcome;
import dev.errand.spi.ClaimedTask;

/**
 * An ended attempt about to be written to the history.
 *
 * @param task the task as it was claimed (its attempt number included)
 * @param outcome how the attempt ended
 * @param durationMicros how long the handler ran, or {@code null} when no handler ran on this node
 * @param error what went wrong, or {@code null}
 * @param logs the attempt's processing log, or {@code null}
 */
public record AttemptRow(
        ClaimedTask task, AttemptOutcome outcome, Long durationMicros, Attempt.AttemptError error, String logs) {}
