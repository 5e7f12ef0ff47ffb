package dev.errand.internal.workflow;

import dev.errand.internal.store.NewTask;
import dev.errand.spi.ClaimedTask;
import dev.errand.task.TaskState;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The ending of tasks in one transaction, as one unit of work: opened with the transaction
 * ({@link Finisher#open()}), handed each task's own write, and closed once the transaction is over. In the
 * transaction it locks the ended tasks' waiting dependents ahead of their writes, runs the writes, and moves
 * on what follows the tasks whose row the writes changed (continuations, dependents, batch counters and
 * callbacks). Closing it checks again, each in a transaction of its own, the batches near their end whose
 * last counts concurrent transactions may have hidden from this one.
 *
 * <p>Not thread-safe: one per transaction, on the thread that runs it. Use it with try-with-resources, so
 * that it closes whether the transaction commits or rolls back (a check only reads, and fires what the
 * committed counts call for).
 */
public final class Finish implements AutoCloseable {

    private final Finisher finisher;
    private final Set<Long> recheck = new LinkedHashSet<>();

    Finish(Finisher finisher) {
        this.finisher = finisher;
    }

    /** A task's own write, the statement that ends its row. */
    @FunctionalInterface
    public interface OwnWrite {
        /**
         * Writes the task's end, fenced so that it changes the row only if the row is still the caller's to end.
         *
         * @return whether it changed the row
         */
        boolean write(Connection connection) throws SQLException;
    }

    /**
     * Ends one claimed task with {@code outcome}: locks its waiting dependents, runs its own write, and, if
     * that changed the row, moves on what follows its end. Call it first in the transaction that ends the
     * task (after the lock on its own row), since the dependents must be locked before any write; see
     * {@link #lockAhead}.
     *
     * @return whether the write changed the row
     */
    public boolean end(Connection c, ClaimedTask task, TaskState outcome, OwnWrite write) throws SQLException {
        lockAhead(c, List.of(task));
        if (!write.write(c)) {
            return false;
        }
        if (!task.links().isNone()) {
            ended(c, List.of(Finisher.Finished.of(task)), outcome);
        }
        return true;
    }

    /**
     * Ends one task that never ran (it expired, or its pinned node stayed away) with {@code outcome}: runs its
     * own write, and, if that changed the row, moves on what follows its end. Its dependents are not locked
     * ahead: nothing holds its row, and its own write locks it first, in the order in which a batch's cancel
     * locks its unstarted tasks before their dependents.
     *
     * @return whether the write changed the row
     */
    public boolean endBeforeRun(Connection c, ClaimedTask task, TaskState outcome, OwnWrite write) throws SQLException {
        if (!write.write(c)) {
            return false;
        }
        if (!task.links().isNone()) {
            ended(c, List.of(Finisher.Finished.of(task)), outcome);
        }
        return true;
    }

    /**
     * Locks the waiting dependents of {@code tasks}, in id order, before the caller writes their ends (for
     * an ending of many tasks that cannot go through {@link #end}). On MariaDB the end of a task changes its
     * index entries, and a transaction that then waited for a shared dependent could hold an index entry that
     * the dependent's release in another transaction needs: two middles of a fan-in deadlocked so. Taking
     * every dependent's row lock before any write means transactions queue on the first shared dependent,
     * all in one order, and the cycle cannot form.
     */
    public void lockAhead(Connection c, Collection<ClaimedTask> tasks) throws SQLException {
        finisher.lockAhead(c, tasks);
    }

    /**
     * Moves on what follows the end of {@code tasks}, whose own writes this transaction made and which all
     * ended with {@code outcome}. Pass only the tasks whose row the writes changed, so that each is counted
     * once.
     */
    public void ended(Connection c, Collection<Finisher.Finished> tasks, TaskState outcome) throws SQLException {
        recheck.addAll(finisher.finished(c, tasks, outcome));
    }

    /**
     * Inserts the continuations a handler asked for, each naming {@code predecessor}. Call it only once the
     * predecessor's success is written in this transaction.
     */
    public void continueWith(Connection c, long predecessor, List<NewTask> next) throws SQLException {
        finisher.continueWith(c, predecessor, next);
    }

    /**
     * Cancels a batch: marks it cancelled and cancels its tasks that have not started, which count as
     * cancelled.
     *
     * @param reason the {@code last_error} of the cancelled tasks
     * @return how many tasks it cancelled; 0 if the batch was cancelled already; -1 if there is no such batch
     */
    public long cancelBatch(Connection c, long batchId, String reason) throws SQLException {
        return finisher.cancelBatch(c, batchId, reason, this);
    }

    /** Checks again the batches this ending counted near their end; see {@link Finisher#recheck}. */
    @Override
    public void close() {
        if (recheck.isEmpty()) {
            return;
        }
        Set<Long> batches = new LinkedHashSet<>(recheck);
        recheck.clear();
        finisher.recheck(batches);
    }
}
