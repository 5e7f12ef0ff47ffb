package dev.errand.internal.engine;

import dev.errand.node.KindControl;
import dev.errand.retry.RetryPolicy;
import dev.errand.task.TaskDefinition;
import java.time.Duration;

/**
 * A task kind with its options resolved against the engine's defaults.
 *
 * @param definition the registered definition
 * @param retryPolicy its retry policy, or the engine default
 * @param lease its lease, or the engine default
 * @param executionTimeout the longest an attempt may run, or null
 */
record RegisteredKind(
        TaskDefinition<?> definition, RetryPolicy retryPolicy, Duration lease, Duration executionTimeout) {

    /** This kind with the values that a run-time override sets. */
    RegisteredKind with(KindControl override) {
        return new RegisteredKind(
                definition,
                override.retryPolicy() != null ? override.retryPolicy() : retryPolicy,
                lease,
                override.executionTimeout() != null ? override.executionTimeout() : executionTimeout);
    }
}
