package dev.errand.internal.admin;

import dev.errand.admin.BulkCount;
import dev.errand.admin.BulkOptions;
import dev.errand.admin.BulkResult;
import dev.errand.admin.Cancellation;
import dev.errand.admin.KeysetPage;
import dev.errand.admin.Page;
import dev.errand.admin.QueueLoads;
import dev.errand.admin.TaskAdmin;
import dev.errand.admin.TaskCount;
import dev.errand.admin.TaskCounts;
import dev.errand.admin.TaskCountsSnapshot;
import dev.errand.admin.TaskLinks;
import dev.errand.admin.TaskQuery;
import dev.errand.config.TimeLimits;
import dev.errand.enqueue.TaskRequest;
import dev.errand.error.ErrandException;
import dev.errand.internal.counts.CountSnapshots;
import dev.errand.internal.engine.Stores;
import dev.errand.internal.process.ProcessRegistry;
import dev.errand.internal.store.FinishedTasks;
import dev.errand.internal.store.Jdbc;
import dev.errand.internal.store.Micros;
import dev.errand.internal.store.Storage;
import dev.errand.internal.store.TaskQueries;
import dev.errand.internal.workflow.Finish;
import dev.errand.internal.workflow.Finisher;
import dev.errand.task.Task;
import dev.errand.task.TaskState;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/** The admin API on the task table: checks the arguments, then runs each action in its own transaction. */
public final class JdbcTaskAdmin implements TaskAdmin {

    /** How often delete reads a task's state again when its state changed before the delete. */
    private static final int DELETE_ATTEMPTS = 5;

    /** The largest {@code exactUpTo} of a bounded count. */
    private static final long MAX_EXACT_COUNT = 10_000_000;

    private final Storage storage;
    private final Stores stores;
    private final TaskQueries queries;
    private final FinishedTasks finishedTasks;
    private final Finisher finisher;
    private final TaskListing listing;
    private final BulkActions bulk;
    private final CountSnapshots snapshots;

    /**
     * Creates the admin API on a node's stores, the task queries, the pruning statements and the stored
     * counts.
     */
    public JdbcTaskAdmin(Stores stores, TaskQueries queries, FinishedTasks finishedTasks, CountSnapshots snapshots) {
        this.storage = stores.storage();
        this.stores = stores;
        this.queries = queries;
        this.finishedTasks = finishedTasks;
        this.finisher = stores.finisher();
        this.listing = new TaskListing(storage, queries);
        this.bulk = new BulkActions(stores);
        this.snapshots = snapshots;
    }

    @Override
    public java.util.List<Long> chain(long id) {
        requireId(id);
        return run(
                "chain",
                c -> queries.find(c, id).isEmpty()
                        ? java.util.List.<Long>of()
                        : stores.workflows().chain(c, id));
    }

    @Override
    public Optional<TaskLinks> links(long id) {
        requireId(id);
        return run("links", c -> {
            Optional<dev.errand.spi.ClaimedTask.Links> row = stores.workflows().links(c, id);
            if (row.isEmpty()) {
                return Optional.<TaskLinks>empty();
            }
            return Optional.of(
                    stores.workflows().graphs().taskLinks(c, id, row.get().batchId()));
        });
    }

    /** Moves the workflow on after an operator cancelled a task that had not started. */
    private void cancelled(java.sql.Connection c, Finish finish, long id) throws SQLException {
        Optional<dev.errand.spi.ClaimedTask.Links> links = stores.workflows().links(c, id);
        if (links.isPresent() && !links.get().isNone()) {
            finish.ended(c, java.util.List.of(new Finisher.Finished(id, links.get())), TaskState.CANCELLED);
        }
    }

    @Override
    public Optional<Task> find(long id) {
        requireId(id);
        return run("find", c -> queries.find(c, id));
    }

    @Override
    public Optional<dev.errand.task.TaskProgress> progress(long id) {
        requireId(id);
        return run("progress", c -> storage.tasks().progress().read(c, id));
    }

    @Override
    public Page<Task> list(TaskQuery query) {
        requireQuery(query);
        return run(
                "list",
                c -> new Page<>(listing.page(c, query), listing.count(c, query, true), query.offset(), query.limit()));
    }

    @Override
    public long count(TaskQuery query) {
        requireQuery(query);
        return run("count", c -> listing.count(c, query, false));
    }

    @Override
    public KeysetPage<Task> listKeyset(TaskQuery query) {
        requireQuery(query);
        if (query.offset() != 0) {
            throw new IllegalArgumentException("listKeyset pages by after/before, not by offset; got offset "
                    + query.offset() + " (use list for offset pages)");
        }
        return run("listKeyset", c -> listing.keyset(c, query));
    }

    @Override
    public TaskCount count(TaskQuery query, long exactUpTo) {
        requireQuery(query);
        if (exactUpTo < 0 || exactUpTo > MAX_EXACT_COUNT) {
            throw new IllegalArgumentException(
                    "exactUpTo must be between 0 and " + MAX_EXACT_COUNT + ", got " + exactUpTo);
        }
        return run("count", c -> listing.count(c, query, exactUpTo));
    }

    @Override
    public BulkCount countForBulk(TaskQuery filter) {
        requireQuery(filter);
        return run("countForBulk", c -> listing.countForBulk(c, filter));
    }

    @Override
    public BulkResult retryAll(TaskQuery filter, BulkOptions options) {
        requireBulk(filter, options);
        return bulk("retryAll", () -> bulk.retry(filter, options));
    }

    @Override
    public BulkResult cancelAll(TaskQuery filter, BulkOptions options) {
        requireBulk(filter, options);
        return bulk("cancelAll", () -> bulk.cancel(filter, options));
    }

    @Override
    public BulkResult deleteAll(TaskQuery filter, BulkOptions options) {
        requireBulk(filter, options);
        return bulk("deleteAll", () -> bulk.delete(filter, options));
    }

    @Override
    public BulkResult rescheduleAll(TaskQuery filter, Instant runAt, BulkOptions options) {
        requireBulk(filter, options);
        TaskRequest.requireRunAt(runAt);
        return bulk("rescheduleAll", () -> bulk.reschedule(filter, runAt, options));
    }

    @Override
    public BulkResult changePriority(TaskQuery filter, int priority, BulkOptions options) {
        requireBulk(filter, options);
        requirePriority(priority);
        return bulk("changePriority", () -> bulk.priority(filter, priority, options));
    }

    @Override
    public boolean changePriority(long id, int priority) {
        requireId(id);
        requirePriority(priority);
        return run("changePriority", c -> bulk.priority(c, id, priority));
    }

    /** A bulk action: its chunks run in transactions of their own. */
    @FunctionalInterface
    private interface BulkWork {
        BulkResult run() throws SQLException;
    }

    private static BulkResult bulk(String operation, BulkWork work) {
        try {
            return work.run();
        } catch (SQLException e) {
            throw new ErrandException("admin " + operation, e);
        }
    }

    @Override
    public boolean cancel(long id) {
        requireId(id);
        return ending("cancel", (c, finish) -> {
            refuseProcessAnalysis(c, id, "cancelling");
            boolean cancelled = queries.cancel(c, id);
            if (cancelled) {
                // A cancelled task waits for nothing: its conditions must not absorb a later trigger.
                stores.events().forgetConditions(c, id);
                cancelled(c, finish, id);
            }
            return cancelled;
        });
    }

    @Override
    public Cancellation requestCancel(long id) {
        requireId(id);
        return ending("requestCancel", (c, finish) -> {
            refuseProcessAnalysis(c, id, "cancelling");
            Cancellation cancellation = storage.cancels().cancel(c, id);
            if (cancellation == Cancellation.CANCELLED) {
                stores.events().forgetConditions(c, id);
                cancelled(c, finish, id);
            }
            return cancellation;
        });
    }

    @Override
    public boolean retryNow(long id) {
        requireId(id);
        return run("retryNow", c -> {
            Optional<Task> task = queries.find(c, id);
            if (task.isEmpty()) {
                return false;
            }
            TaskState was = task.get().state();
            // Only a task still in the state read here moves, so its batch count moves from that state.
            if (!queries.retryNowFrom(c, id, was)) {
                return false;
            }
            Optional<dev.errand.spi.ClaimedTask.Links> links =
                    stores.workflows().links(c, id);
            if (links.isPresent()) {
                finisher.reopened(c, links.get(), was);
            }
            return true;
        });
    }

    @Override
    public boolean reschedule(long id, Instant runAt) {
        requireId(id);
        TaskRequest.requireRunAt(runAt);
        return run("reschedule", c -> queries.reschedule(c, id, runAt));
    }

    @Override
    public boolean delete(long id) {
        requireId(id);
        return ending("delete", (c, finish) -> {
            refuseProcessAnalysis(c, id, "deleting");
            // A concurrent end of the task may change its state between the read and the delete: read again.
            for (int attempt = 0; attempt < DELETE_ATTEMPTS; attempt++) {
                Optional<Task> task = queries.find(c, id);
                Optional<dev.errand.spi.ClaimedTask.Links> links =
                        stores.workflows().links(c, id);
                if (task.isEmpty() || links.isEmpty()) {
                    return false;
                }
                TaskState state = task.get().state();
                if (!queries.deleteIn(c, id, state)) {
                    continue;
                }
                stores.events().forgetConditions(c, id);
                if (isUnfinished(state) && !links.get().isNone()) {
                    // An unfinished task that is deleted never ends by itself (a running attempt finds its row
                    // gone and writes nothing): it counts as cancelled in its batch, and its dependents follow
                    // their policy, as if an operator had cancelled it.
                    finish.ended(c, java.util.List.of(new Finisher.Finished(id, links.get())), TaskState.CANCELLED);
                }
                return true;
            }
            throw new SQLException("Task " + id + " kept changing state while it was deleted; try again");
        });
    }

    @Override
    public int pruneSucceeded(Duration olderThan) {
        TimeLimits.requireDuration("olderThan", olderThan);
        return pruneFinished(TaskState.SUCCEEDED, olderThan);
    }

    @Override
    public int pruneFinished(TaskState state, Duration olderThan) {
        if (state != TaskState.SUCCEEDED && state != TaskState.FAILED && state != TaskState.CANCELLED) {
            throw new IllegalArgumentException(
                    "Only finished tasks are pruned: give SUCCEEDED, FAILED or CANCELLED, got " + state);
        }
        TimeLimits.requireDuration("olderThan", olderThan);
        try {
            return finishedTasks.prune(
                    storage.transactions(),
                    new FinishedTasks.Selection(state, Micros.ofAge(olderThan), null, Set.of()));
        } catch (SQLException e) {
            throw new ErrandException("admin pruneFinished", e);
        }
    }

    @Override
    public TaskCounts counts(Duration overdueAfter) {
        requireOverdue(overdueAfter);
        return run("counts", c -> queries.counts(c, overdueAfter));
    }

    @Override
    public TaskCountsSnapshot countsSnapshot(Duration overdueAfter, Duration maxAge) {
        requireOverdue(overdueAfter);
        TimeLimits.requireDuration("maxAge", maxAge);
        try {
            return snapshots.read("tasks/" + overdueAfter, maxAge, c -> queries.counts(c, overdueAfter));
        } catch (SQLException e) {
            throw new ErrandException("admin countsSnapshot", e);
        }
    }

    @Override
    public QueueLoads load(Duration overdueAfter) {
        requireOverdue(overdueAfter);
        return run("load", c -> queries.load(c, overdueAfter));
    }

    private <T> T run(String operation, Jdbc.ConnectionWork<T> work) {
        try {
            return storage.transactions().run("admin", work);
        } catch (SQLException e) {
            throw new ErrandException("admin " + operation, e);
        }
    }

    /** Runs an operation that may end tasks, through one {@link Finish} closed once its transaction is over. */
    private <T> T ending(String operation, EndingWork<T> work) {
        try (Finish finish = finisher.open()) {
            return run(operation, c -> work.run(c, finish));
        }
    }

    /** An admin operation's work that may end tasks through its transaction's {@link Finish}. */
    @FunctionalInterface
    private interface EndingWork<T> {
        T run(java.sql.Connection c, Finish finish) throws SQLException;
    }

    /**
     * Refuses to cancel or delete the analysis task of a process turn, or the creation task of a process: no
     * failure callback runs for it, so its process would stay running with no turn to end, or initializing for
     * ever. The process admin cancels the whole process.
     */
    private void refuseProcessAnalysis(java.sql.Connection c, long id, String doing) throws SQLException {
        Optional<Task> task = queries.find(c, id);
        if (task.isEmpty() || !isUnfinished(task.get().state())) {
            return;
        }
        if (ProcessRegistry.isTurnKind(task.get().kind())) {
            throw new IllegalArgumentException("Task " + id + " is the analysis of a turn of a process; " + doing
                    + " it would leave the process running with no turn to end. Cancel the process instead"
                    + " with errand.processes().cancel(processId)");
        }
        if (ProcessRegistry.isCreateKind(task.get().kind())) {
            throw new IllegalArgumentException("Task " + id + " is the creation of a process; " + doing
                    + " it would leave the process initializing for ever. Cancel the process instead"
                    + " with errand.processes().cancel(processId)");
        }
    }

    private static boolean isUnfinished(TaskState state) {
        return state == TaskState.PENDING || state == TaskState.WAITING || state == TaskState.RUNNING;
    }

    private static void requireId(long id) {
        if (id < 1) {
            throw new IllegalArgumentException("Task ids are positive numbers, got " + id);
        }
    }

    private static void requireQuery(TaskQuery query) {
        if (query == null) {
            throw new IllegalArgumentException("query must not be null; use TaskQuery.all() to match every task");
        }
    }

    private static void requireBulk(TaskQuery filter, BulkOptions options) {
        if (filter == null) {
            throw new IllegalArgumentException(
                    "filter must not be null; use TaskQuery.all() to act on every task the action applies to");
        }
        if (options == null) {
            throw new IllegalArgumentException("options must not be null; use BulkOptions.defaults()");
        }
    }

    private static void requirePriority(int priority) {
        if (priority < 1 || priority > 10) {
            throw new IllegalArgumentException(
                    "priority must be between 1 (runs first) and 10 (runs last), got " + priority);
        }
    }

    private static void requireOverdue(Duration overdueAfter) {
        TimeLimits.requireDuration("overdueAfter", overdueAfter);
    }
}
