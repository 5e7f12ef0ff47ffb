package dev.errand.node;

import dev.errand.retry.RetryPolicy;
import java.time.Duration;

/**
 * The run-time overrides of one kind's settings on every node (null keeps the kind's own); see {@link KindChange}.
 *
 * @param kind the kind
 * @param maxAttempts the most attempts of tasks enqueued from the change on, or null
 * @param retryPolicy the retry policy, or null
 * @param executionTimeout the longest an attempt may run, or null
 */
public record KindControl(String kind, Integer maxAttempts, RetryPolicy retryPolicy, Duration executionTimeout) {}
