package dev.errand.task;

/**
 * Runs one task of a kind. Implementations must be thread-safe: the engine calls one instance from
 * many worker threads at once.
 *
 * <p>Returning normally completes the task. Throwing fails the attempt, and the kind's retry policy
 * decides what happens next. Throwing {@link RetryLater} asks for another attempt after a chosen
 * delay.
 *
 * @param <P> the payload type, decoded from the task's JSON payload
 */
@FunctionalInterface
public interface TaskHandler<P> {

    /**
     * Runs the task.
     *
     * @param payload the decoded payload; {@code null} when the task was enqueued without one
     * @param context the attempt's context: task id, attempt number and, for transactional kinds,
     *     the connection whose transaction also completes the task
     * @throws Exception any failure; it is recorded on the task and the attempt is retried or failed
     */
    void handle(P payload, TaskContext context) throws Exception;
}
