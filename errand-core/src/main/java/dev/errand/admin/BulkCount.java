package dev.errand.admin;

/**
 * What a bulk action on a filter would act on ({@link TaskAdmin#countForBulk(TaskQuery)}): the count to show
 * the operator, and the highest id counted, to pass to {@link BulkOptions#upToId(long)} so that the action
 * touches the set the operator confirmed and not tasks enqueued after it.
 *
 * @param count how many tasks match the filter now, counted exactly
 * @param highestId the highest id among them, or 0 if none match
 */
public record BulkCount(long count, long highestId) {}
