package dev.errand.batch;

import java.time.Instant;

/**
 * Which batches {@link BatchAdmin#list} lists, newest first: optionally only finished or unfinished ones, created
 * in a time range, and before an id (the keyset of the next page: the last id of the page before).
 *
 * @param finished true for finished batches only, false for unfinished ones only, null for both
 * @param createdFrom the earliest creation time, inclusive, or null
 * @param createdBefore the creation time to stay before, exclusive, or null
 * @param beforeId only batches with a lower id, or null for the newest
 * @param limit how many at most, 1 to {@value #MAX_LIMIT}
 */
public record BatchQuery(Boolean finished, Instant createdFrom, Instant createdBefore, Long beforeId, int limit) {

    /** The most batches one call lists. */
    public static final int MAX_LIMIT = 1_000;

    /**
     * Checks the query.
     *
     * @throws IllegalArgumentException if the limit is out of range, {@code beforeId} is not positive, or the
     *     time range is empty
     */
    public BatchQuery {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT + ", got " + limit);
        }
        if (beforeId != null && beforeId <= 0) {
            throw new IllegalArgumentException(
                    "beforeId must be positive (the last batch id of the page before), got " + beforeId);
        }
        if (createdFrom != null && createdBefore != null && !createdFrom.isBefore(createdBefore)) {
            throw new IllegalArgumentException(
                    "createdFrom must be before createdBefore, got " + createdFrom + " and " + createdBefore);
        }
    }

    /** The newest {@code limit} batches, finished or not. */
    public static BatchQuery newest(int limit) {
        return new BatchQuery(null, null, null, null, limit);
    }

    /** The same query, for finished ({@code true}), unfinished ({@code false}) or all ({@code null}) batches. */
    public BatchQuery withFinished(Boolean finished) {
        return new BatchQuery(finished, createdFrom, createdBefore, beforeId, limit);
    }

    /** The same query, for batches created in {@code [from, before)}; either end may be null. */
    public BatchQuery withCreated(Instant from, Instant before) {
        return new BatchQuery(finished, from, before, beforeId, limit);
    }

    /** The same query, for the page after the one whose last batch id is {@code id}. */
    public BatchQuery withBeforeId(Long id) {
        return new BatchQuery(finished, createdFrom, createdBefore, id, limit);
    }
}
