package dev.errand.process;

import dev.errand.config.Names;
import java.util.ArrayList;
import java.util.List;

/**
 * What an analysis decides after a turn: finish, run another turn with new batches, or fail the process. Failed
 * batches of the turn run again in the next turn whatever the decision (up to the process's retries), so
 * {@link #finish()} ends the process only once nothing failed.
 *
 * @param <T> the item type
 */
public final class TurnDecision<T> {

    private final List<List<T>> batches;
    private final String failure;

    private TurnDecision(List<List<T>> batches, String failure) {
        this.batches = batches;
        this.failure = failure;
    }

    /** No new batches: the process succeeds once no failed batch is left to run again. */
    public static <T> TurnDecision<T> finish() {
        return new TurnDecision<>(List.of(), null);
    }

    /**
     * Runs another turn with these batches, each a list of items (besides the failed batches run again).
     *
     * @throws IllegalArgumentException if the list, a batch or an item is null, or a batch is empty
     */
    public static <T> TurnDecision<T> nextTurn(List<List<T>> batches) {
        if (batches == null) {
            throw new IllegalArgumentException("batches must not be null; return TurnDecision.finish() for none");
        }
        List<List<T>> copy = new ArrayList<>(batches.size());
        for (List<T> batch : batches) {
            if (batch == null || batch.isEmpty()) {
                throw new IllegalArgumentException("A batch of the next turn is null or empty; give each batch at"
                        + " least one item, or leave it out");
            }
            for (T item : batch) {
                if (item == null) {
                    throw new IllegalArgumentException("A batch of the next turn holds a null item; leave it out");
                }
            }
            copy.add(List.copyOf(batch));
        }
        return new TurnDecision<>(List.copyOf(copy), null);
    }

    /**
     * Fails the process now, with this reason; failed batches do not run again. The process's error keeps the
     * first 4,000 characters of the reason, with any NUL character replaced by U+FFFD (PostgreSQL cannot store
     * NUL; a reason is often an error's text, which may hold one).
     *
     * @throws IllegalArgumentException if the reason is null or blank
     */
    public static <T> TurnDecision<T> fail(String reason) {
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException(
                    "reason must not be blank: say why the process fails, got " + Names.echo(reason));
        }
        return new TurnDecision<>(List.of(), reason);
    }

    /** The new batches of the next turn; empty for none. */
    public List<List<T>> batches() {
        return batches;
    }

    /** Why the process fails, or {@code null} if it does not. */
    public String failure() {
        return failure;
    }
}
