package dev.errand.engine;

import dev.errand.ErrandSettings;
import dev.errand.retry.RetryPolicy;
import dev.errand.task.TaskDefinition;
import java.time.Duration;

/**
 * A task kind with its options resolved against the engine's defaults.
 *
 * @param definition the registered definition
 * @param retryPolicy its retry policy, or the engine default
 * @param lease its lease, or the engine default
 */
public record RegisteredKind(TaskDefinition<?> definition, RetryPolicy retryPolicy, Duration lease) {

    /** Resolves a definition's options. */
    public static RegisteredKind resolve(TaskDefinition<?> definition, ErrandSettings settings) {
        return new RegisteredKind(definition,
                definition.retryPolicy() != null ? definition.retryPolicy() : settings.defaultRetryPolicy(),
                definition.leaseDuration() != null ? definition.leaseDuration() : settings.leaseDuration());
    }
}
