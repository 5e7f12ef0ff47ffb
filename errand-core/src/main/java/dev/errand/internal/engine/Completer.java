package dev.errand.internal.engine;

import dev.errand.history.AttemptOutcome;
import dev.errand.internal.history.AttemptHistory;
import dev.errand.internal.history.AttemptRow;
import dev.errand.internal.outcome.ErrorMessages;
import dev.errand.internal.runtime.Problems;
import dev.errand.internal.store.CompletionRider;
import dev.errand.internal.store.NewTask;
import dev.errand.internal.store.Storage;
import dev.errand.internal.workflow.Finish;
import dev.errand.internal.workflow.Finisher;
import dev.errand.spi.ClaimedTask;
import dev.errand.spi.TaskTracing;
import dev.errand.task.TaskState;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Buffers the successes of non-transactional tasks and completes them in batches: many ids per
 * statement, flushed every few milliseconds or as soon as a batch is full. Until its batch commits a
 * task keeps its lease, so a crash before the flush means another attempt, never a lost task.
 *
 * <p>A task also keeps its place in its queue's claim budget until its batch commits: if flushes fall
 * behind, the poller claims less, instead of piling up completed tasks that are still running in the
 * database.
 */
final class Completer {

    private static final Logger log = LoggerFactory.getLogger(Completer.class);

    /**
     * How completions are gathered.
     *
     * @param flushInterval the longest a completion waits
     * @param batchSize the most completions in one statement
     * @param freesSlot whether a task's completion frees a flow-control slot: such a completion is flushed with
     *     what is already buffered, without waiting for more, because held-back tasks wait for its slot
     */
    record Batching(Duration flushInterval, int batchSize, java.util.function.Predicate<ClaimedTask> freesSlot) {}

    /** A success waiting for its batch, how long its handler ran, and what to call once the batch commits. */
    private record Done(ClaimedTask task, Ended ended, List<NewTask> next, Runnable whenCompleted) {

        /** Whether completing it writes more than its own row: continuations, dependents, a batch. */
        boolean linked() {
            return !next.isEmpty() || !task.links().isNone();
        }
    }

    private final Storage storage;
    private final Stores stores;
    private final Batching batching;
    private final LeaseKeeper leases;
    private final Observers observers;
    private final LinkedBlockingQueue<Done> buffer = new LinkedBlockingQueue<>();
    private final Thread thread;
    private final Problems problems;
    private final Finisher finisher;
    /**
     * The ending of the flushes since the buffer last drained, on the completer's thread: one check of the
     * batches they counted near their end, once the buffer is empty, is enough (see {@link #flush}).
     */
    private Finish finish;

    private volatile boolean running = true;
    private int failedFlushesInARow;

    Completer(Stores stores, Batching batching, LeaseKeeper leases, Observers observers, Problems problems) {
        this.storage = stores.storage();
        this.stores = stores;
        this.batching = batching;
        this.leases = leases;
        this.observers = observers;
        this.problems = problems;
        this.finisher = stores.finisher();
        this.thread = new Thread(this::loop);
        this.thread.setDaemon(true);
    }

    /** Starts the completer's thread, named {@code <threadNamePrefix>completer}. */
    void start(String threadNamePrefix) {
        thread.setName(threadNamePrefix + "completer");
        thread.start();
    }

    /** Buffers a success; {@code whenCompleted} runs once its batch is in the database (or at stop). */
    void complete(ClaimedTask task, Ended ended, List<NewTask> next, Runnable whenCompleted) {
        buffer.add(new Done(task, ended, List.copyOf(next), whenCompleted));
    }

    private void loop() {
        List<Done> batch = new ArrayList<>(batching.batchSize());
        while (running || !buffer.isEmpty()) {
            try {
                if (gather(batch)) {
                    flush(batch);
                    batch.clear();
                }
            } catch (InterruptedException e) {
                running = false;
            } catch (Throwable unexpected) {
                // Nothing may end this thread: its buffered tasks would then wait for rescue.
                problems.failed("completer", unexpected);
                buffer.addAll(batch);
                batch.clear();
                pause();
            }
        }
    }

    /** Waits for one completion, then lets a few more arrive so that one statement covers them. */
    private boolean gather(List<Done> batch) throws InterruptedException {
        long flushNanos = batching.flushInterval().toNanos();
        Done first = buffer.poll(flushNanos, TimeUnit.NANOSECONDS);
        if (first == null) {
            return false;
        }
        batch.add(first);
        long deadline = batching.freesSlot().test(first.task()) ? System.nanoTime() : System.nanoTime() + flushNanos;
        while (batch.size() < batching.batchSize()) {
            long left = deadline - System.nanoTime();
            Done next = left > 0 ? buffer.poll(left, TimeUnit.NANOSECONDS) : buffer.poll();
            if (next == null) {
                break;
            }
            batch.add(next);
        }
        return true;
    }

    private void flush(List<Done> batch) {
        long[] ids = new long[batch.size()];
        long[] tokens = new long[batch.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = batch.get(i).task().id();
            tokens[i] = batch.get(i).task().leaseToken();
        }
        boolean linked = false;
        for (Done done : batch) {
            linked |= done.linked();
        }
        try {
            int completed = write(batch, linked, ids, tokens);
            recovered();
            observers.stats().recordSucceeded(completed);
            if (completed < ids.length) {
                observers.stats().recordFencedOff(ids.length - completed);
                log.warn(
                        "{} of {} completions found their lease taken back; those tasks run again elsewhere",
                        ids.length - completed,
                        ids.length);
            }
            for (long id : ids) {
                leases.forget(id);
            }
            batch.forEach(Completer::completed);
            // A batch near its end is checked again after the commit; while more completions wait, the next
            // flush counts them and checks in its own transaction, so one check once the buffer drains is enough.
            if (buffer.isEmpty() && finish != null) {
                finish.close();
                finish = null;
            }
        } catch (Exception e) {
            if (running) {
                // Keep the tasks buffered: their leases stay alive and the next flush tries again.
                failedFlush(ids.length, e);
                buffer.addAll(batch);
                pause();
            } else {
                log.warn(
                        "Completing {} tasks failed while stopping ({}); their leases will expire and they will"
                                + " run again",
                        ids.length,
                        ErrorMessages.of(e));
                batch.forEach(Completer::completed);
            }
        }
    }

    /** Writes one batch's successes, in the span of a completion; returns how many it completed. */
    private int write(List<Done> batch, boolean linked, long[] ids, long[] tokens) throws SQLException {
        try (TaskTracing.BatchSpan span =
                GuardedBatchSpan.open(observers.tracing(), "completion", t -> t.completionStarted(ids.length))) {
            try {
                int completed = linked
                        ? storage.transactions().run("complete", c -> completeLinked(c, finish(), batch, ids, tokens))
                        : completeUnlinked(batch, ids, tokens);
                span.tasks(completed);
                return completed;
            } catch (SQLException | RuntimeException e) {
                span.failed(e);
                throw e;
            }
        }
    }

    /**
     * Completes a batch with no continuations, dependents or batch. With history on, its rows go in the same
     * transaction, with no commit of their own; on PostgreSQL in the same statement.
     */
    private int completeUnlinked(List<Done> batch, long[] ids, long[] tokens) throws SQLException {
        AttemptHistory attempts = stores.attempts();
        if (attempts.ridesOnCompletion()) {
            CompletionRider rider = attempts.successRider(successes(batch));
            return storage.transactions().runStatement("complete", c -> storage.tasks()
                    .succeedAllReturningIds(c, ids, tokens, rider)
                    .size());
        }
        if (attempts.enabled()) {
            return storage.transactions().run("complete", c -> {
                // Without RETURNING, the rows still this node's are locked first, so that a task whose lease was
                // taken back (it runs again elsewhere) gets no success row for this attempt.
                List<ClaimedTask> live = stores.workflows().lockRunning(c, tasks(batch));
                attempts.recordAll(c, successes(only(batch, live)));
                return storage.tasks().succeedAll(c, ids, tokens);
            });
        }
        return storage.transactions()
                .runStatement("complete", c -> storage.tasks().succeedAll(c, ids, tokens));
    }

    /** The ending of the flushes since the buffer last drained, opened by the first of them. */
    private Finish finish() {
        if (finish == null) {
            finish = finisher.open();
        }
        return finish;
    }

    /** A failed flush is logged once per episode, with a count, since the engine recovers by itself. */
    private void failedFlush(int tasks, Exception e) {
        failedFlushesInARow++;
        if (failedFlushesInARow == 1) {
            log.warn(
                    "Completing {} tasks failed ({}); keeping them and retrying until the database answers",
                    tasks,
                    ErrorMessages.of(e));
        }
    }

    /**
     * Completes a batch in which some tasks have continuations, dependents or a batch, and moves on only
     * those this transaction completes (the others lost their lease): PostgreSQL says which through
     * {@code RETURNING}; elsewhere they are locked first.
     */
    private int completeLinked(Connection c, Finish finish, List<Done> batch, long[] ids, long[] tokens)
            throws SQLException {
        List<ClaimedTask> linked = new ArrayList<>();
        java.util.Map<Long, List<NewTask>> next = new java.util.HashMap<>();
        for (Done done : batch) {
            if (done.linked()) {
                linked.add(done.task());
                if (!done.next().isEmpty()) {
                    next.put(done.task().id(), done.next());
                }
            }
        }
        boolean rides = stores.attempts().ridesOnCompletion();
        List<ClaimedTask> live;
        int completed;
        if (storage.tasks().returnsCompletedIds()) {
            java.util.Set<Long> done = storage.tasks()
                    .succeedAllReturningIds(
                            c, ids, tokens, rides ? stores.attempts().successRider(successes(batch)) : null);
            completed = done.size();
            live = new ArrayList<>(linked.size());
            for (ClaimedTask task : linked) {
                if (done.contains(task.id())) {
                    live.add(task);
                }
            }
        } else {
            // No RETURNING on an UPDATE or DELETE here: lock first to learn which of them this flush completes,
            // then their dependents, before any write (see Finish.lockAhead; PostgreSQL needs neither).
            // History rows go only to the tasks still this node's, so with history on every task is locked.
            boolean history = stores.attempts().enabled();
            List<ClaimedTask> locked = stores.workflows().lockRunning(c, history ? tasks(batch) : linked);
            live = history ? among(locked, linked) : locked;
            finish.lockAhead(c, live);
            if (history) {
                stores.attempts().recordAll(c, successes(only(batch, locked)));
            }
            completed = storage.tasks().succeedAll(c, ids, tokens);
        }
        List<Finisher.Finished> finished = new ArrayList<>(live.size());
        for (ClaimedTask task : live) {
            List<NewTask> continuations = next.get(task.id());
            if (continuations != null) {
                finish.continueWith(c, task.id(), continuations);
            }
            finished.add(Finisher.Finished.of(task));
        }
        finish.ended(c, finished, TaskState.SUCCEEDED);
        return completed;
    }

    /** The tasks of {@code tasks} that are also in {@code wanted}. */
    private static List<ClaimedTask> among(List<ClaimedTask> tasks, List<ClaimedTask> wanted) {
        java.util.Set<Long> ids = new java.util.HashSet<>();
        wanted.forEach(task -> ids.add(task.id()));
        List<ClaimedTask> kept = new ArrayList<>(wanted.size());
        for (ClaimedTask task : tasks) {
            if (ids.contains(task.id())) {
                kept.add(task);
            }
        }
        return kept;
    }

    private static List<ClaimedTask> tasks(List<Done> batch) {
        List<ClaimedTask> tasks = new ArrayList<>(batch.size());
        for (Done done : batch) {
            tasks.add(done.task());
        }
        return tasks;
    }

    /** The completions of {@code batch} whose task is one of {@code live}. */
    private static List<Done> only(List<Done> batch, List<ClaimedTask> live) {
        if (live.size() == batch.size()) {
            return batch;
        }
        java.util.Set<Long> ids = new java.util.HashSet<>();
        live.forEach(task -> ids.add(task.id()));
        List<Done> kept = new ArrayList<>(live.size());
        for (Done done : batch) {
            if (ids.contains(done.task().id())) {
                kept.add(done);
            }
        }
        return kept;
    }

    private static List<AttemptRow> successes(List<Done> batch) {
        List<AttemptRow> rows = new ArrayList<>(batch.size());
        for (Done done : batch) {
            rows.add(new AttemptRow(
                    done.task(),
                    AttemptOutcome.SUCCEEDED,
                    done.ended().durationMicros(),
                    null,
                    done.ended().logs()));
        }
        return rows;
    }

    private void recovered() {
        if (failedFlushesInARow > 0) {
            log.info("Completions reach the database again after {} failed flushes", failedFlushesInARow);
            failedFlushesInARow = 0;
        }
        problems.succeeded("completer");
    }

    private static void completed(Done done) {
        try {
            done.whenCompleted().run();
        } catch (RuntimeException e) {
            log.error("Completion callback of task {} failed", done.task().id(), e);
        }
    }

    private void pause() {
        try {
            Thread.sleep(Math.max(100, batching.flushInterval().toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    /** Flushes what is buffered and stops, waiting up to {@code timeoutMillis}. */
    void stop(long timeoutMillis) {
        running = false;
        try {
            thread.join(Math.max(1, timeoutMillis));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!buffer.isEmpty()) {
            log.warn(
                    "{} completions were not flushed before stop; their leases will expire and they will"
                            + " run again",
                    buffer.size());
            List<Done> left = new ArrayList<>();
            buffer.drainTo(left);
            left.forEach(Completer::completed);
        }
    }
}
