package dev.errand.history;

import dev.errand.admin.Page;
import java.time.Duration;
import java.util.List;

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
}
