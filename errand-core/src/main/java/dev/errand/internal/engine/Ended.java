package dev.errand.internal.engine;

import dev.errand.internal.outcome.Ending;

/**
 * How an attempt ended, with how long its handler ran, for the outcome and the attempt history.
 *
 * @param ending how it ended
 * @param durationMicros how long the handler ran, or {@code null} when no handler ran on this node
 * @param logs the attempt's processing log as stored, or {@code null}
 */
record Ended(Ending ending, Long durationMicros, String logs) {

    /** An ending without a handler run on this node (an unknown kind, an unreadable payload, a lost worker). */
    static Ended withoutRun(Ending ending) {
        return new Ended(ending, null, null);
    }
}
