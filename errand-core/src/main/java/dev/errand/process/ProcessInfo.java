package dev.errand.process;

import java.time.Instant;
import java.util.List;

/**
 * A process as stored.
 *
 * @param id its id
 * @param name its kind's name
 * @param state its state
 * @param turn its current (or last) turn
 * @param nodeGroup the node group its batches run in, or {@code null}
 * @param retries how often a failed batch runs again
 * @param batches how many batches it created, over all turns (a batch run again counts once); while it is
 *     {@link ProcessState#INITIALIZING}, how many its creation has written so far
 * @param rowsRead how many rows of its input query its creation has read so far (0 for a collection); with
 *     {@code batches}, the progress of a creation
 * @param error why it failed, or {@code null}
 * @param createdAt when it was created, on the database clock
 * @param finishedAt when it ended, or {@code null}
 * @param turns its turns, first first, with their counts
 */
public record ProcessInfo(
        String id,
        String name,
        ProcessState state,
        int turn,
        String nodeGroup,
        int retries,
        int batches,
        long rowsRead,
        String error,
        Instant createdAt,
        Instant finishedAt,
        List<TurnInfo> turns) {

    /** Copies the list of turns. */
    public ProcessInfo {
        turns = List.copyOf(turns);
    }
}
