package dev.errand.process;

import java.util.List;

/**
 * The full interface of a process: runs its batches and analyses each turn, deciding whether the process
 * finishes, continues with new batches or fails.
 *
 * @param <T> the item type
 */
public interface ProcessHandler<T> {

    /**
     * Runs one batch of a turn, in the transaction of {@link BatchContext#connection()}; batches of a turn run in
     * parallel, on any node that registers the process (and serves the process's node group).
     *
     * @throws Exception to fail the batch: its writes roll back and it runs again in the next turn
     */
    void execute(List<T> items, BatchContext context) throws Exception;

    /**
     * Analyses a turn once all its batches have ended, once per turn, on one node.
     *
     * @return the decision; {@code null} counts as {@link TurnDecision#finish()}
     * @throws Exception to fail the process with this error
     */
    TurnDecision<T> analyse(TurnResult result, AnalysisContext context) throws Exception;
}
