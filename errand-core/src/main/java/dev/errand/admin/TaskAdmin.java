package dev.errand.admin;

import dev.errand.task.Task;
import dev.errand.task.TaskState;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Operator actions on tasks. Each method runs in a transaction of its own and reports whether the task
 * was in a state that allows the action. The same operations are available as plain SQL; see
 * {@code docs/SCHEMA.md}. A database failure throws {@link dev.errand.error.ErrandException}.
 */
public interface TaskAdmin {

    /** Finds a task by id. */
    Optional<Task> find(long id);

    /**
     * The progress that running task {@code id} reported with {@code TaskContext.progress}, as last written
     * (reports are throttled to about one a second). Written outside the task's transaction, so it shows
     * while a transactional task still runs; deleted when the attempt ends.
     *
     * @return empty if the task does not run, or its running attempt reported none
     * @throws IllegalArgumentException if {@code id} is not positive
     */
    Optional<dev.errand.task.TaskProgress> progress(long id);

    /**
     * The chain of continuations that task {@code id} belongs to, first step first: the tasks that
     * enqueued it with {@code TaskContext.continueWith}, it, and the tasks it enqueued that way. Steps no
     * longer in the task table (succeeded tasks are deleted unless succeeded-task retention is on) end the
     * chain on that side.
     *
     * @return the tasks' ids; just {@code id} if it has no predecessor or successor, empty if it does not
     *     exist
     * @throws IllegalArgumentException if {@code id} is not positive
     */
    java.util.List<Long> chain(long id);

    /**
     * What task {@code id} is linked to: its batch, its workflow and step, the tasks it runs after and before in
     * its workflow, and the conditions it still waits for. A few reads by key.
     *
     * @return empty if there is no such task
     * @throws IllegalArgumentException if {@code id} is not positive
     */
    Optional<TaskLinks> links(long id);

    /**
     * Lists a page of tasks that match the query, in its order, chosen by its offset, with the count of every
     * match (a scan of the matches: for deep or large listings use {@link #listKeyset(TaskQuery)}). Keyset
     * cursors ({@code after}, {@code before}) apply as filters, to the items and the total.
     */
    Page<Task> list(TaskQuery query);

    /** Counts the tasks that match the query (its offset, limit and keyset cursors are ignored). */
    long count(TaskQuery query);

    /**
     * Lists a page of tasks that match the query, read after or before its keyset cursor in its order (one
     * index range read wherever the page is), with the cursors of the pages either side and no total.
     *
     * @throws IllegalArgumentException if the query is null or has an offset
     */
    KeysetPage<Task> listKeyset(TaskQuery query);

    /**
     * Counts the tasks that match the query (its page and cursors are ignored) exactly up to {@code exactUpTo},
     * reading at most that many matches plus one; above it, returns the database planner's estimate flagged as
     * one (PostgreSQL and MariaDB; H2 counts exactly), so that a page that refreshes never counts a large table.
     *
     * @param exactUpTo 0 to 10,000,000
     * @throws IllegalArgumentException if the query is null or {@code exactUpTo} is out of range
     */
    TaskCount count(TaskQuery query, long exactUpTo);

    /**
     * Counts exactly what a bulk action on {@code filter} would select (its page and order are ignored; its
     * cursors apply), with the highest id counted: show the count, ask, then run the action with
     * {@link BulkOptions#upToId(long)} set to that id.
     *
     * @throws IllegalArgumentException if the filter is null
     */
    BulkCount countForBulk(TaskQuery filter);

    /**
     * Runs every failed or cancelled task that matches {@code filter} again now, as {@link #retryNow(long)}
     * does one, in chunks of ids picked in id order, one transaction per chunk; tasks in other states or locked
     * at the time are skipped.
     *
     * @throws IllegalArgumentException if the filter or options are null
     */
    BulkResult retryAll(TaskQuery filter, BulkOptions options);

    /**
     * Cancels every pending or waiting task that matches {@code filter}, as {@link #cancel(long)} does one
     * (batches count them, dependents follow their policy), in chunks; the unfinished analysis task of a
     * process turn is skipped.
     *
     * @throws IllegalArgumentException if the filter or options are null
     */
    BulkResult cancelAll(TaskQuery filter, BulkOptions options);

    /**
     * Deletes every task that matches {@code filter}, as {@link #delete(long)} does one, in chunks; a running
     * task whose row its handler's transaction holds is skipped, and so is the unfinished analysis task of a
     * process turn.
     *
     * @throws IllegalArgumentException if the filter or options are null
     */
    BulkResult deleteAll(TaskQuery filter, BulkOptions options);

    /**
     * Moves every pending task that matches {@code filter} to {@code runAt}, in chunks.
     *
     * @throws IllegalArgumentException if the filter, the time or the options are null or the time is out of range
     */
    BulkResult rescheduleAll(TaskQuery filter, Instant runAt, BulkOptions options);

    /**
     * Sets the priority of every pending or waiting task that matches {@code filter}, in chunks.
     *
     * @param priority 1 (first) to 10
     * @throws IllegalArgumentException if the filter or options are null or the priority is out of range
     */
    BulkResult changePriority(TaskQuery filter, int priority, BulkOptions options);

    /**
     * Sets the priority of a pending or waiting task; returns false if it is in any other state or gone.
     *
     * @param priority 1 (first) to 10
     * @throws IllegalArgumentException if the id is not positive or the priority is out of range
     */
    boolean changePriority(long id, int priority);

    /**
     * Cancels a pending or waiting task; returns false if it is in any other state or gone.
     *
     * @throws IllegalArgumentException if {@code id} is not positive, or the task is the unfinished analysis
     *     of a process turn (cancel the process through {@code Errand.processes()} instead)
     */
    boolean cancel(long id);

    /**
     * Cancels a pending or waiting task now, or asks a running one to stop: its handler sees
     * {@code TaskContext.isCancelled()} and its thread is interrupted, on whichever node runs it.
     *
     * @return what was done
     */
    Cancellation requestCancel(long id);

    /**
     * Runs a failed or cancelled task again now, with a fresh count of attempts; its error history
     * stays. A batch member moves from its batch's failed (or cancelled) count back to pending and is
     * counted again when it ends; callbacks that fired stay fired, and dependents that already followed
     * their policy stay as they are (see {@code docs/WORKFLOWS.md}). Returns false if it is in any other
     * state or gone.
     */
    boolean retryNow(long id);

    /**
     * Moves a pending task to a new run time; returns false if it is not pending or gone. To run a
     * failed task again, use {@link #retryNow(long)}.
     */
    boolean reschedule(long id, Instant runAt);

    /**
     * Deletes a task in any state. A running attempt of a deleted task finds its row gone and writes
     * nothing. A task deleted before it finished counts as cancelled in its batch, and its dependents
     * follow their workflow's policy, as for {@link #cancel(long)}. Returns false if there was no such task.
     */
    boolean delete(long id);

    /**
     * Deletes succeeded tasks that finished more than {@code olderThan} ago, on the database's clock; see
     * {@link #pruneFinished(TaskState, Duration)}.
     *
     * @param olderThan zero to 36,500 days (100 years, {@link dev.errand.config.TimeLimits#MAX_DURATION})
     * @return how many were deleted
     * @throws IllegalArgumentException if the age is null, negative or longer than 36,500 days
     */
    int pruneSucceeded(Duration olderThan);

    /**
     * Deletes the tasks in a final state that finished more than {@code olderThan} ago, in batches of 1,000,
     * each in a transaction of its own.
     *
     * @param state {@link TaskState#SUCCEEDED}, {@link TaskState#FAILED} or {@link TaskState#CANCELLED}
     * @param olderThan zero to 36,500 days (100 years, {@link dev.errand.config.TimeLimits#MAX_DURATION}),
     *     measured on the database's clock; zero deletes every task of the state that finished before now
     * @return how many were deleted
     * @throws IllegalArgumentException if the state is not a final one, or the age is null, negative or longer
     *     than 36,500 days
     */
    int pruneFinished(TaskState state, Duration olderThan);

    /**
     * Every task counted by state, kind and queue, with the due and overdue pending tasks, in one scan
     * of the table: the counts agree with each other (due is part of pending).
     *
     * @param overdueAfter how long past its {@code run_at} a pending task must be to count as overdue: zero to
     *     36,500 days (100 years, {@link dev.errand.config.TimeLimits#MAX_DURATION})
     * @throws IllegalArgumentException if it is null, negative or longer than 36,500 days
     */
    TaskCounts counts(Duration overdueAfter);

    /**
     * The counts of {@link #counts(Duration)} without a scan of the table on every read: the last count stored
     * for the whole cluster if it is at most {@code maxAge} old on the database's clock, otherwise a new count,
     * stored for every node and returned. While one caller counts, the others get the stored counts, older
     * than asked ({@link TaskCountsSnapshot#recounting()}), rather than scan the table at the same time; a
     * count left unfinished by a node that died is taken over after five minutes. Meant for dashboards and
     * other frequent reads of a large table: the counts are as old as {@link TaskCountsSnapshot#age()} says.
     *
     * @param overdueAfter as {@link #counts(Duration)} takes it; each value has a snapshot of its own
     * @param maxAge how old stored counts may be: zero to 36,500 days; zero counts on every call
     * @throws IllegalArgumentException if a duration is null, negative or longer than 36,500 days
     */
    TaskCountsSnapshot countsSnapshot(Duration overdueAfter, Duration maxAge);

    /**
     * The load on the queues, read from the claim index only: due tasks per queue with the oldest's lag,
     * and the failed and overdue counts. Cheap enough for frequent health checks and metric scrapes.
     *
     * @param overdueAfter how long past its {@code run_at} a pending task must be to count as overdue: zero to
     *     36,500 days (100 years, {@link dev.errand.config.TimeLimits#MAX_DURATION})
     * @throws IllegalArgumentException if it is null, negative or longer than 36,500 days
     */
    QueueLoads load(Duration overdueAfter);
}
