package dev.errand.batch;

import java.util.List;

/**
 * A batch that was enqueued.
 *
 * @param id the batch's id, for {@link BatchAdmin}
 * @param taskIds its tasks' ids, in request order
 */
public record EnqueuedBatch(long id, List<Long> taskIds) {

    /** Copies the list. */
    public EnqueuedBatch {
        taskIds = List.copyOf(taskIds);
    }
}
