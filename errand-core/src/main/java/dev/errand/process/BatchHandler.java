package dev.errand.process;

import java.util.List;

/**
 * The simple interface of a process: handles one batch at a time. The process finishes once every batch has
 * succeeded, each failed batch having run again in later turns up to the process's retries.
 *
 * @param <T> the item type
 */
@FunctionalInterface
public interface BatchHandler<T> {

    /**
     * Handles one batch, in the transaction of {@link BatchContext#connection()}.
     *
     * @param items the batch's items, in the order they were split
     * @param context the batch and its transaction
     * @throws Exception to fail the batch: its writes roll back and it runs again in the next turn
     */
    void handle(List<T> items, BatchContext context) throws Exception;
}
