package dev.errand.event;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;

/**
 * Triggering events and looking after what waits for them. Every method that takes a {@link Connection}
 * joins the caller's transaction; the others run in a transaction of their own. Database failures throw
 * {@link dev.errand.error.ErrandException}. Cancel a waiting task with
 * {@link dev.errand.admin.TaskAdmin#cancel(long)}.
 */
public interface EventAdmin {

    /**
     * Triggers {@code event} in the caller's transaction: fulfils the matching condition of every waiting
     * task, and makes pending those whose last condition it was. If no task waits for it, stores it as
     * premature. Workers are woken once the transaction commits (on PostgreSQL by NOTIFY; elsewhere by
     * polling, or at once on this node when the connection is in auto-commit).
     *
     * @throws IllegalArgumentException if the connection is null or the name is not a valid event name
     */
    Triggered trigger(Connection connection, String event);

    /**
     * Triggers {@code event} in a transaction of its own, and wakes this node's workers after it commits.
     *
     * @throws IllegalArgumentException if the name is not a valid event name
     */
    Triggered trigger(String event);

    /**
     * Waiting tasks with their open conditions, oldest first.
     *
     * @param limit how many at most, 1 to 10,000
     * @throws IllegalArgumentException if the limit is out of range
     */
    List<WaitingTask> waiting(int limit);

    /**
     * The waiting tasks that have {@code event} among their open conditions, oldest first.
     *
     * @param limit how many at most, 1 to 10,000
     * @throws IllegalArgumentException if the name or the limit is not valid
     */
    List<WaitingTask> waitingFor(String event, int limit);

    /**
     * Per event name, how many waiting tasks have it among their open conditions and the oldest of them: most
     * waiters first, then by name. One grouped read of the open conditions (whose rows exist only for waiting
     * tasks), so it costs the number of open conditions, not the size of the task table. Workflow dependencies
     * are conditions too, named {@code errand:after:<task id>}.
     *
     * @param limit how many event names at most, 1 to 10,000
     * @throws IllegalArgumentException if the limit is out of range
     */
    List<EventWaiters> waitingCounts(int limit);

    /**
     * Stored premature events, oldest first.
     *
     * @param limit how many at most, 1 to 10,000
     * @throws IllegalArgumentException if the limit is out of range
     */
    List<PrematureEvent> premature(int limit);

    /**
     * Deletes one stored premature event, so that the next task waiting for it waits for a new trigger.
     *
     * @return whether it was stored
     * @throws IllegalArgumentException if the name is not a valid event name
     */
    boolean deletePremature(String event);

    /**
     * Deletes the premature events last triggered more than {@code age} ago, on the database's clock.
     *
     * @param age zero to 36,500 days (100 years, {@link dev.errand.config.TimeLimits#MAX_DURATION})
     * @return how many were deleted
     * @throws IllegalArgumentException if the age is null, negative or longer than 36,500 days
     */
    int deletePrematureOlderThan(Duration age);
}
