package dev.errand.admin;

/**
 * What a bulk action did ({@link TaskAdmin#retryAll}, {@link TaskAdmin#cancelAll}, ...).
 *
 * @param matched the tasks the filter selected (within {@link BulkOptions#upToId(long)} and
 *     {@link BulkOptions#atMost(long)})
 * @param changed the tasks the action changed
 * @param skipped the matched tasks it left alone: locked by a worker or another transaction at the time, or no
 *     longer in a state the action applies to ({@code matched - changed})
 * @param chunks the transactions it ran (each of up to {@link BulkOptions#chunkSize()} tasks)
 */
public record BulkResult(long matched, long changed, long skipped, int chunks) {}
