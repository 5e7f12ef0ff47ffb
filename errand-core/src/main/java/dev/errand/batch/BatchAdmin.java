package dev.errand.batch;

import dev.errand.workflow.WorkflowGraph;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads and cancels batches; each call runs in a transaction of its own. */
public interface BatchAdmin {

    /**
     * A batch's progress, from its counters (a few rows, however many tasks it has).
     *
     * @return empty if there is no such batch
     * @throws IllegalArgumentException if {@code batchId} is not positive
     */
    Optional<BatchProgress> progress(long batchId);

    /**
     * Cancels a batch: its tasks that have not started (pending or waiting) are cancelled in one
     * transaction, and count as cancelled. Running tasks finish as they finish. The batch's callbacks fire
     * as its counts say: {@link BatchEvent#COMPLETE} once nothing is left running.
     *
     * @return how many tasks it cancelled; 0 if the batch was cancelled already
     * @throws IllegalArgumentException if {@code batchId} is not positive or there is no such batch
     */
    long cancel(long batchId);

    /**
     * The callbacks of a batch that fired, with the id of the task each created.
     *
     * @throws IllegalArgumentException if {@code batchId} is not positive
     */
    Map<BatchEvent, Long> firedCallbacks(long batchId);

    /**
     * Batches, newest first (by id), finished or not, with their progress and callbacks. One read of the batch
     * table in id order with its counters summed per batch, and one read of the callbacks of the page.
     *
     * @throws IllegalArgumentException if the query is null
     */
    List<BatchSummary> list(BatchQuery query);

    /**
     * The graph of the workflow a task is a step of: every step with its name and state now, and the edges.
     * Workflows enqueued before the schema stored graphs (version 14) have none.
     *
     * @param taskId the id of any step's task; the workflow's own id is its first step's
     * @return empty if the task is no step of a stored workflow
     * @throws IllegalArgumentException if {@code taskId} is not positive
     */
    Optional<WorkflowGraph> workflow(long taskId);

    /**
     * Cancels a workflow: each step that is pending or waiting is cancelled now, and each running one is asked to
     * stop, as {@link dev.errand.admin.TaskAdmin#requestCancel(long)} does for one task. Steps that ended stay as
     * they are. Each step is cancelled in its own transaction, in the order the steps were added, so a step that
     * starts or ends meanwhile is taken as it is then.
     *
     * @param taskId the id of any step's task; the workflow's own id is its first step's
     * @return how many steps were cancelled now and how many were asked to stop; empty if the task is no step of a
     *     stored workflow
     * @throws IllegalArgumentException if {@code taskId} is not positive
     */
    Optional<WorkflowCancellation> cancelWorkflow(long taskId);
}
