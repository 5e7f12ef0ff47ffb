package dev.errand.spi;

import java.time.Duration;

/**
 * Hears what happens to tasks on this node. Every method has an empty default, so a listener
 * overrides only what it needs. Methods are called on engine threads and must return quickly and not
 * throw; an exception is logged and otherwise ignored. The Spring Boot starter bridges these events to
 * Micrometer.
 */
public interface TaskListener {

    /** Tasks were enqueued by this node (after the insert; the caller's transaction may still roll back). */
    default void enqueued(String kind, String queue, int count) {}

    /** An attempt is about to run its handler. */
    default void started(String kind, String queue, int attempt) {}

    /** An attempt succeeded; {@code duration} is the handler's run time. */
    default void succeeded(String kind, String queue, Duration duration) {}

    /** An attempt failed and another attempt is scheduled (also for a handler's retry-later request). */
    default void retried(String kind, String queue, int attempt) {}

    /** A task failed for good. */
    default void failed(String kind, String queue, int attempt) {}

    /** A task whose worker was lost was rescued (retried or failed). */
    default void rescued(String kind, String queue) {}

    /** A statement hit a deadlock or lock timeout and was retried transparently. */
    default void lockConflictRetried(String operation) {}
}
