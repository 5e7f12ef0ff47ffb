package dev.errand.internal.workflow;

import dev.errand.batch.BatchEvent;
import dev.errand.batch.BatchProgress;
import dev.errand.enqueue.Enqueued;
import dev.errand.internal.store.NewTask;
import dev.errand.internal.store.Storage;
import dev.errand.internal.store.TaskInserter;
import dev.errand.spi.ClaimedTask;
import dev.errand.task.TaskState;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What follows a task's end, in the transaction that ends it: its continuations are inserted, its
 * dependents are released (or cancelled, as their policy says, and so on down the graph), and its
 * batch's counters move on, firing the batch's callbacks when due. The callers pass only the tasks
 * whose row they changed (their writes are fenced), so each task is counted exactly once.
 *
 * <p>Every ender goes through a {@link Finish}, the unit of work of one transaction that ends tasks,
 * which this finisher opens ({@link #open()}).
 */
public final class Finisher {

    private static final Logger log = LoggerFactory.getLogger(Finisher.class);

    /**
     * Below this many unfinished tasks, a batch is checked again after the commit (see {@link #recheck}): more
     * than the completions that concurrent transactions usually hold uncommitted. A batch whose end more of
     * them hide is fired by the sweep instead, later but still once.
     */
    private static final long NEARLY_DONE = 2_000;

    private final Storage storage;
    private final WorkflowStore store;
    private final TaskInserter inserter;

    /** Creates the finisher on a node's storage and its workflow statements. */
    public Finisher(Storage storage, WorkflowStore store) {
        this.storage = storage;
        this.store = store;
        this.inserter = storage.inserter();
    }

    /**
     * A task that ended in this transaction.
     *
     * @param id its id
     * @param links its batch and dependents
     */
    public record Finished(long id, ClaimedTask.Links links) {

        /** The task of a claim. */
        public static Finished of(ClaimedTask task) {
            return new Finished(task.id(), task.links());
        }
    }

    /** Opens the ending of tasks in a transaction that is about to begin; close it once it is over. */
    public Finish open() {
        return new Finish(this);
    }

    /** Inserts the continuations a handler asked for, each naming {@code predecessor}; see {@link Finish}. */
    void continueWith(Connection c, long predecessor, List<NewTask> next) throws SQLException {
        for (NewTask task : next) {
            Enqueued enqueued = inserter.insert(c, task, store.channel());
            if (enqueued.created()) {
                store.setPredecessor(c, enqueued.id(), predecessor);
            }
        }
    }

    /** Locks the waiting dependents of {@code tasks}, in id order; see {@link Finish#lockAhead}. */
    void lockAhead(Connection c, Collection<ClaimedTask> tasks) throws SQLException {
        long[] predecessors = tasks.stream()
                .filter(task -> task.links().hasDependents())
                .mapToLong(ClaimedTask::id)
                .toArray();
        if (predecessors.length > 0) {
            store.lockDependents(c, predecessors);
        }
    }

    /**
     * Applies what follows the end of {@code tasks}, which all ended with {@code outcome}.
     *
     * @return the batches that this transaction may not see finish (concurrent transactions hide their counts
     *     until they commit), to {@linkplain #recheck check again} once the transaction is over
     */
    Set<Long> finished(Connection c, Collection<Finished> tasks, TaskState outcome) throws SQLException {
        Counts counts = new Counts();
        List<Finished> level = new ArrayList<>();
        for (Finished task : tasks) {
            if (!task.links().isNone()) {
                level.add(task);
            }
        }
        TaskState state = outcome;
        // Cancelling dependents ends them too: walk down the graph one level per round.
        while (!level.isEmpty()) {
            counts.add(level, state);
            level = followDependents(c, level, state);
            state = TaskState.CANCELLED;
        }
        return counts.write(c);
    }

    /** Cancels a batch in the transaction of {@code finish}; see {@link Finish#cancelBatch}. */
    long cancelBatch(Connection c, long batchId, String reason, Finish finish) throws SQLException {
        if (!store.markCancelled(c, batchId)) {
            return store.progress(c, batchId).isEmpty() ? -1L : 0L;
        }
        List<WorkflowStore.Dependent> unstarted = store.lockUnstarted(c, batchId);
        long[] ids = unstarted.stream().mapToLong(WorkflowStore.Dependent::id).toArray();
        int count = store.cancelUnstarted(c, ids, reason);
        List<Finished> cancelled = new ArrayList<>(unstarted.size());
        unstarted.forEach(task -> cancelled.add(new Finished(task.id(), task.links())));
        finish.ended(c, cancelled, TaskState.CANCELLED);
        return count;
    }

    /**
     * Takes a finished task that an operator puts back to pending out of its batch's count of {@code was}
     * (succeeded, failed or cancelled), so that the batch counts it again when it ends. Callbacks that
     * fired stay fired: each fires at most once.
     */
    public void reopened(Connection c, ClaimedTask.Links links, TaskState was) throws SQLException {
        if (links.batchId() == 0) {
            return;
        }
        store.count(
                c,
                links.batchId(),
                ThreadLocalRandom.current().nextInt(WorkflowStore.STRIPES),
                was == TaskState.SUCCEEDED ? -1 : 0,
                was == TaskState.FAILED ? -1 : 0,
                was == TaskState.CANCELLED ? -1 : 0);
    }

    /**
     * Fires what a batch's current progress calls for, in a transaction of its own: a check after the
     * commit of a transaction that counted, which concurrent transactions may have hidden from it.
     */
    public void recheck(Set<Long> batches) {
        for (long batch : batches) {
            try {
                storage.transactions().run("batch-check", c -> {
                    fireDue(c, batch, false);
                    return null;
                });
            } catch (SQLException e) {
                log.warn(
                        "Could not check batch {} for its callbacks ({}); the sweep checks it later",
                        batch,
                        e.getMessage());
            }
        }
    }

    /**
     * Fires the callbacks that a batch's progress calls for and that have not fired.
     *
     * @param failedHere whether this transaction counted a failure (the only time the failure callback can
     *     become due)
     * @return whether the batch has unfinished tasks
     */
    boolean fireDue(Connection c, long batchId, boolean failedHere) throws SQLException {
        Optional<BatchProgress> read = store.progress(c, batchId);
        if (read.isEmpty()) {
            return false;
        }
        BatchProgress progress = read.get();
        if (progress.failed() > 0) {
            fire(c, batchId, BatchEvent.FAILURE);
        }
        if (progress.isFinished()) {
            fire(c, batchId, BatchEvent.COMPLETE);
            if (progress.isSucceeded()) {
                fire(c, batchId, BatchEvent.SUCCESS);
            }
            // Every task is counted: a callback that has not fired now never will, and the sweep can forget it.
            store.deleteUnfiredCallbacks(c, batchId);
        }
        return !progress.isFinished() || failedHere;
    }

    private void fire(Connection c, long batchId, BatchEvent event) throws SQLException {
        Optional<NewTask> callback = store.callback(c, batchId, event.dbValue());
        if (callback.isEmpty() || !store.claimFiring(c, batchId, event.dbValue())) {
            return;
        }
        Enqueued enqueued = inserter.insert(c, callback.get(), store.channel());
        store.setFiredTask(c, batchId, event.dbValue(), enqueued.id());
        log.debug("Batch {} fired its {} callback, task {}", batchId, event, enqueued.id());
    }

    private List<Finished> followDependents(Connection c, List<Finished> level, TaskState outcome) throws SQLException {
        long[] predecessors = level.stream()
                .filter(task -> task.links().hasDependents())
                .mapToLong(Finished::id)
                .toArray();
        if (predecessors.length == 0) {
            return List.of();
        }
        List<WorkflowStore.Dependent> dependents = store.lockDependents(c, predecessors);
        List<Long> release = new ArrayList<>();
        List<WorkflowStore.Dependent> cancel = new ArrayList<>();
        for (WorkflowStore.Dependent dependent : dependents) {
            if (outcome == TaskState.SUCCEEDED || dependent.runAnyway()) {
                release.add(dependent.id());
            } else {
                cancel.add(dependent);
            }
        }
        int released = store.releaseFulfilled(
                c, predecessors, release.stream().mapToLong(Long::longValue).toArray());
        if (released > 0) {
            Set<String> queues = new LinkedHashSet<>();
            dependents.forEach(dependent -> queues.add(dependent.queue()));
            for (String queue : queues) {
                storage.dialect().notifyOnCommit(c, store.channel(), queue);
            }
        }
        if (cancel.isEmpty()) {
            return List.of();
        }
        String reason = "Cancelled: a task it depends on (" + idsText(predecessors) + ") "
                + (outcome == TaskState.FAILED ? "failed" : "was cancelled");
        store.cancelUnstarted(
                c, cancel.stream().mapToLong(WorkflowStore.Dependent::id).toArray(), reason);
        List<Finished> next = new ArrayList<>(cancel.size());
        cancel.forEach(dependent -> next.add(new Finished(dependent.id(), dependent.links())));
        return next;
    }

    private static String idsText(long[] ids) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < ids.length && i < 5; i++) {
            text.append(i == 0 ? "" : ", ").append(ids[i]);
        }
        if (ids.length > 5) {
            text.append(", …");
        }
        return text.toString();
    }

    /** The counts of one transaction, written once per batch at the end, in batch order. */
    private final class Counts {
        private final Map<Long, long[]> byBatch = new TreeMap<>();

        void add(List<Finished> tasks, TaskState outcome) {
            int slot = outcome == TaskState.SUCCEEDED ? 0 : outcome == TaskState.FAILED ? 1 : 2;
            for (Finished task : tasks) {
                long batch = task.links().batchId();
                if (batch != 0) {
                    byBatch.computeIfAbsent(batch, id -> new long[3])[slot]++;
                }
            }
        }

        /**
         * Adds to one stripe per batch, chosen for this transaction, in batch order so that two
         * transactions never wait for each other in opposite orders; then fires what is due.
         */
        Set<Long> write(Connection c) throws SQLException {
            if (byBatch.isEmpty()) {
                return Set.of();
            }
            int stripe = ThreadLocalRandom.current().nextInt(WorkflowStore.STRIPES);
            Map<Long, Optional<BatchProgress>> read = new TreeMap<>();
            for (Map.Entry<Long, long[]> entry : byBatch.entrySet()) {
                long[] n = entry.getValue();
                read.put(entry.getKey(), store.countAndRead(c, entry.getKey(), stripe, n[0], n[1], n[2]));
            }
            Set<Long> recheck = new LinkedHashSet<>();
            for (Map.Entry<Long, long[]> entry : byBatch.entrySet()) {
                Optional<BatchProgress> progress = read.get(entry.getKey());
                if (progress.isEmpty()) {
                    continue;
                }
                boolean failedHere = entry.getValue()[1] > 0;
                boolean due = progress.get().isFinished()
                        || (failedHere && progress.get().failed() > 0);
                if (due) {
                    fireDue(c, entry.getKey(), failedHere);
                }
                if (!progress.get().isFinished() && progress.get().pending() <= NEARLY_DONE) {
                    recheck.add(entry.getKey());
                }
            }
            return recheck;
        }
    }
}
