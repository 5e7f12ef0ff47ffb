package dev.errand.history;

import dev.errand.admin.Page;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Reading and pruning the attempt history. Each method runs in a transaction of its own; database failures
 * throw {@link dev.errand.error.ErrandException}.
 */
public interface HistoryAdmin {

    /**
     * The attempts of one task, first to last; empty if it has none recorded (or history is off).
     *
     * @throws IllegalArgumentException if the id is not positive
     */
    List<Attempt> attempts(long taskId);

    /**
     * Attempts that match a query, newest first, one page of them.
     *
     * @throws IllegalArgumentException if the query is null
     */
    Page<Attempt> search(AttemptQuery query);

    /**
     * Deletes the attempts that finished more than {@code age} ago, on the database's clock.
     *
     * @param age zero to 36,500 days (100 years, {@link dev.errand.config.TimeLimits#MAX_DURATION})
     * @return how many were deleted
     * @throws IllegalArgumentException if the age is null, negative or longer than 36,500 days
     */
    int prune(Duration age);

    /** The longest window {@link #throughput} reads. */
    Duration MAX_THROUGHPUT_WINDOW = Duration.ofHours(24);

    /**
     * How many attempts ended per bucket over the last {@code window}, up to the database's time now: succeeded,
     * failed for good, retried. One grouped read of the history's rows in the window (served by its
     * {@code finished_at} index). Buckets start at whole multiples of their length since the epoch; the last one
     * holds now and is still filling.
     *
     * @param window 1 bucket to 24 hours, a whole number of buckets
     * @param bucket 10 seconds to 1 hour, whole seconds
     * @return empty if the attempt history is off on this node ({@code historyEnabled})
     * @throws IllegalArgumentException if the window or the bucket is null or out of range, or the window is not a
     *     whole number of buckets
     */
    Optional<Throughput> throughput(Duration window, Duration bucket);

    /**
     * How many attempts ended per minute over the last {@code window}, as the nodes counted them in memory, summed
     * over every node: succeeded, failed for good, retried. It works whether or not the attempt history is on:
     * each processing node adds its counters to a row per minute (table {@code node_throughput}) at each heartbeat
     * interval, so the current minute lags by up to one interval, and a node that stops or dies loses the counts
     * of its last interval. Minutes are kept two hours.
     *
     * @param window 1 minute to 2 hours, whole minutes
     * @throws IllegalArgumentException if the window is null, out of range or not whole minutes
     */
    Throughput nodeThroughput(Duration window);
}
