package dev.errand.process;

import java.time.Instant;

/**
 * One turn of a process.
 *
 * @param turn the turn, from 1
 * @param batches how many batches it runs
 * @param succeeded how many have succeeded so far
 * @param failed how many have failed so far
 * @param startedAt when it started, on the database clock
 * @param analysedAt when its analysis ran, or {@code null}
 */
public record TurnInfo(int turn, int batches, int succeeded, int failed, Instant startedAt, Instant analysedAt) {

    /** Batches that have not ended yet. */
    public int pending() {
        return batches - succeeded - failed;
    }
}
