package dev.errand.process;

import java.util.List;

/**
 * What a turn did, as its analysis sees it.
 *
 * @param turn the turn, from 1
 * @param batches how many batches it ran
 * @param succeeded how many of them succeeded
 * @param failed how many failed; they run again in the next turn
 * @param failures the failed batches, by batch number
 */
public record TurnResult(int turn, int batches, int succeeded, int failed, List<FailedBatch> failures) {

    /** Copies the list of failures. */
    public TurnResult {
        failures = List.copyOf(failures);
    }
}
