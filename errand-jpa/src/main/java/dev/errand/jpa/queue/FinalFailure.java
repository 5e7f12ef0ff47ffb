package dev.errand.jpa.queue;

import dev.errand.task.FailureCause;

/**
 * An item that has just failed for good, as its queue's {@link FinalFailureCallback} sees it.
 *
 * @param queue the queue's name
 * @param entityId the entity's id
 * @param attempts the attempts made
 * @param error the error text stored in {@code last_error}
 * @param cause why: {@link FailureCause.HandlerFailed} (the processor threw) or {@link FailureCause.WorkerLost}
 *     (the node of the last attempt was lost)
 */
public record FinalFailure(String queue, Object entityId, int attempts, String error, FailureCause cause) {}
