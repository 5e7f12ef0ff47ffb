package dev.errand.internal.admin;

import dev.errand.admin.BulkOptions;
import dev.errand.admin.BulkResult;
import dev.errand.admin.TaskQuery;
import dev.errand.internal.engine.Stores;
import dev.errand.internal.process.ProcessRegistry;
import dev.errand.internal.store.Dialect;
import dev.errand.internal.store.States;
import dev.errand.internal.store.Storage;
import dev.errand.internal.workflow.Finish;
import dev.errand.internal.workflow.Finisher;
import dev.errand.task.TaskState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The set-based statements of the bulk actions and of a task's priority, with the same bookkeeping as the
 * one-task actions of {@link JdbcTaskAdmin}: batch counters and dependents through the {@link Finisher},
 * conditions forgotten for tasks that stop waiting.
 */
final class BulkActions {

    private static final Set<TaskState> RETRYABLE = EnumSet.of(TaskState.FAILED, TaskState.CANCELLED);
    private static final Set<TaskState> UNSTARTED = EnumSet.of(TaskState.PENDING, TaskState.WAITING);
    private static final Set<TaskState> ANY = EnumSet.allOf(TaskState.class);

    private final Storage storage;
    private final Stores stores;
    private final Dialect dialect;
    private final String table;
    private final BulkRunner runner;

    BulkActions(Stores stores) {
        this.storage = stores.storage();
        this.stores = stores;
        this.dialect = storage.dialect();
        this.table = storage.tasks().table();
        this.runner = new BulkRunner(storage, stores.finisher());
    }

    BulkResult retry(TaskQuery filter, BulkOptions options) throws SQLException {
        return runner.run("retryAll", filter, options, RETRYABLE, (c, finish, tasks) -> {
            // The rows are locked and in these states: each moves from the state read with its lock.
            long[] ids = BulkRunner.ids(tasks);
            int changed = update(
                    c,
                    "SET state = " + States.PENDING + ", attempt = 0, run_at = " + dialect.timePlusMicros()
                            + ", finished_at = NULL, expires_at = NULL",
                    ids,
                    RETRYABLE,
                    storage.offsetMicros());
            for (BulkRunner.Locked task : tasks) {
                if (!task.links().isNone()) {
                    stores.finisher().reopened(c, task.links(), task.state());
                }
            }
            return changed;
        });
    }

    BulkResult cancel(TaskQuery filter, BulkOptions options) throws SQLException {
        return runner.run("cancelAll", filter, options, UNSTARTED, (c, finish, locked) -> {
            List<BulkRunner.Locked> tasks = withoutProcessAnalysis(locked);
            if (tasks.isEmpty()) {
                return 0;
            }
            int changed = update(
                    c,
                    "SET state = " + States.CANCELLED + ", finished_at = " + dialect.timePlusMicros(),
                    BulkRunner.ids(tasks),
                    UNSTARTED,
                    storage.offsetMicros());
            // A cancelled task waits for nothing: its conditions must not absorb a later trigger.
            forgetConditions(c, tasks);
            cancelled(c, finish, tasks);
            return changed;
        });
    }

    BulkResult delete(TaskQuery filter, BulkOptions options) throws SQLException {
        return runner.run("deleteAll", filter, options, ANY, (c, finish, locked) -> {
            List<BulkRunner.Locked> tasks = withoutProcessAnalysis(locked);
            if (tasks.isEmpty()) {
                return 0;
            }
            long[] ids = BulkRunner.ids(tasks);
            int changed;
            try (PreparedStatement delete =
                    c.prepareStatement("DELETE FROM " + table + " WHERE " + dialect.idIn("id", ids.length))) {
                dialect.bindIds(delete, 1, ids);
                changed = delete.executeUpdate();
            }
            forgetConditions(c, tasks);
            // An unfinished task deleted never ends by itself: it counts as cancelled, as delete(id) does.
            cancelled(
                    c,
                    finish,
                    tasks.stream().filter(task -> isUnfinished(task.state())).toList());
            return changed;
        });
    }

    BulkResult reschedule(TaskQuery filter, Instant runAt, BulkOptions options) throws SQLException {
        Set<TaskState> pending = EnumSet.of(TaskState.PENDING);
        return runner.run(
                "rescheduleAll",
                filter,
                options,
                pending,
                (c, finish, tasks) -> update(
                        c,
                        "SET run_at = " + dialect.timestampParam(),
                        BulkRunner.ids(tasks),
                        pending,
                        dialect.timestampValue(runAt)));
    }

    BulkResult priority(TaskQuery filter, int priority, BulkOptions options) throws SQLException {
        return runner.run(
                "changePriority",
                filter,
                options,
                UNSTARTED,
                (c, finish, tasks) -> update(c, "SET priority = ?", BulkRunner.ids(tasks), UNSTARTED, priority));
    }

    /** Sets one pending or waiting task's priority. */
    boolean priority(Connection c, long id, int priority) throws SQLException {
        return update(c, "SET priority = ?", new long[] {id}, UNSTARTED, priority) == 1;
    }

    private void forgetConditions(Connection c, List<BulkRunner.Locked> tasks) throws SQLException {
        for (BulkRunner.Locked task : tasks) {
            stores.events().forgetConditions(c, task.id());
        }
    }

    /** Moves the batches and dependents of tasks that ended cancelled on, as the one-task actions do. */
    private void cancelled(Connection c, Finish finish, List<BulkRunner.Locked> tasks) throws SQLException {
        List<Finisher.Finished> linked = new ArrayList<>();
        for (BulkRunner.Locked task : tasks) {
            if (!task.links().isNone()) {
                linked.add(new Finisher.Finished(task.id(), task.links()));
            }
        }
        if (!linked.isEmpty()) {
            finish.ended(c, linked, TaskState.CANCELLED);
        }
    }

    /**
     * The analysis task of a process turn and the creation task of a process are cancelled with their process,
     * never alone (see JdbcTaskAdmin).
     */
    private static List<BulkRunner.Locked> withoutProcessAnalysis(List<BulkRunner.Locked> tasks) {
        return tasks.stream()
                .filter(task -> !((ProcessRegistry.isTurnKind(task.kind()) || ProcessRegistry.isCreateKind(task.kind()))
                        && isUnfinished(task.state())))
                .toList();
    }

    private static boolean isUnfinished(TaskState state) {
        return state == TaskState.PENDING || state == TaskState.WAITING || state == TaskState.RUNNING;
    }

    /** {@code UPDATE table <set> WHERE id IN (ids) AND state IN (states)}, the set's parameters first. */
    private int update(Connection c, String set, long[] ids, Set<TaskState> states, Object... setParameters)
            throws SQLException {
        try (PreparedStatement update = c.prepareStatement("UPDATE " + table + " " + set + " WHERE "
                + dialect.idIn("id", ids.length) + " AND state IN " + BulkRunner.literals(states))) {
            int index = 1;
            for (Object parameter : setParameters) {
                update.setObject(index++, parameter);
            }
            dialect.bindIds(update, index, ids);
            return update.executeUpdate();
        }
    }
}
