package dev.errand.task;

/**
 * A task that has just failed for good, as its kind's {@link FailureCallback} sees it.
 *
 * @param id the task's id
 * @param kind the task's kind
 * @param queue the task's queue
 * @param payload the decoded payload; {@code null} if the task had none, or if it could not be decoded
 *     (then {@code cause} is {@link FailureCause.UnreadablePayload})
 * @param payloadJson the payload as stored, or {@code null}
 * @param attempts the number of attempts made
 * @param error the final error text, as stored in {@code last_error}
 * @param cause why it failed, by type
 * @param <P> the payload type
 */
public record FailedTask<P>(
        long id,
        String kind,
        String queue,
        P payload,
        String payloadJson,
        int attempts,
        String error,
        FailureCause cause) {}
