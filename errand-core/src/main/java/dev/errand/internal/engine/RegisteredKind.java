package dev.errand.internal.engine;

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
record RegisteredKind(TaskDefinition<?> definition, RetryPolicy retryPolicy, Duration lease) {}
