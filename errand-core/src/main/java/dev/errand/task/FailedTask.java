package dev.errand.task;

/**
 * A task that has just failed for good, as its kind's {@link FailureCallback} sees it.
 *
 * @param id the task's id
 * @param kind the task's kind
 * @param queue the task's queue
 * @param payloadJson the raw JSON payload, or {@code null}; raw because decoding may be what failed
 * @param attempt the number of attempts made
 * @param error the final error text, as stored in {@code last_error}
 */
public record FailedTask(long id, String kind, String queue, String payloadJson, int attempt, String error) {}
