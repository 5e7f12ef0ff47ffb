package dev.errand.internal.engine;

import dev.errand.enqueue.TaskRequest;
import dev.errand.internal.enqueue.Requests;
import dev.errand.internal.outcome.Ending;
import dev.errand.internal.store.NewTask;
import dev.errand.internal.store.Storage;
import dev.errand.internal.workflow.Finish;
import dev.errand.internal.workflow.Finisher;
import dev.errand.spi.ClaimedTask;
import dev.errand.spi.PayloadDecodingException;
import dev.errand.spi.TaskTracing;
import dev.errand.task.ExecutionMode;
import dev.errand.task.ExecutionTimeoutException;
import dev.errand.task.ProcessingLog;
import dev.errand.task.RetryLater;
import dev.errand.task.Snooze;
import dev.errand.task.TaskHandler;
import dev.errand.task.TaskState;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one claimed task to the end of its attempt. Transactional kinds: lock the row checking the
 * lease token, run the handler on that transaction, complete, commit. Non-transactional kinds: run
 * the handler under the lease, then hand the success to the batched completer. Every other ending goes
 * to the {@link Settler}, errors included: an {@link Error} such as {@link StackOverflowError} is
 * recorded on the task like any failure whenever this thread survives it.
 */
final class TaskRunner {

    private static final Logger log = LoggerFactory.getLogger(TaskRunner.class);

    private final Kinds kinds;
    private final Storage storage;
    private final Stores stores;
    private final Settler settler;
    private final Enders enders;
    private final Observers observers;
    private final RunningAttempts running;
    private final Finisher finisher;
    private final Function<TaskRequest, NewTask> continuations;
    private final TaskTracing tracing;
    private final GroupRunner groups;

    /**
     * What ends an attempt, by outcome.
     *
     * @param settler decides and writes what follows an attempt that did not succeed
     * @param leases the leases of the tasks that run outside a transaction
     * @param completer the batched completion of non-transactional successes
     * @param writer writes a transactional success on its connection
     */
    record Enders(Settler settler, LeaseKeeper leases, Completer completer, OutcomeWriter writer) {}

    TaskRunner(Kinds kinds, Stores stores, Enders enders, Observers observers, RunningAttempts running) {
        this.kinds = kinds;
        this.storage = stores.storage();
        this.stores = stores;
        this.settler = enders.settler();
        this.enders = enders;
        this.observers = observers;
        this.running = running;
        this.finisher = stores.finisher();
        this.tracing = kinds.tracing();
        Requests requests = kinds.requests();
        this.continuations = requests::resolve;
        this.groups = new GroupRunner(this, stores, enders, observers.stats());
    }

    /**
     * Runs the attempt.
     *
     * @param whenCompleted called once the success of a non-transactional run is in the database, by
     *     the completer after its batch commits
     * @return true if the success was handed to the completer (which then calls {@code whenCompleted});
     *     false if the attempt is over (the caller frees its slot itself)
     */
    boolean run(ClaimedTask task, Runnable whenCompleted) {
        // Every line logged during the attempt names the task; the worker's MDC is as before once it ends.
        try (TaskLogContext ignored = TaskLogContext.enter(task);
                TaskTracing.AttemptSpan span = span(task)) {
            return runLogged(task, whenCompleted);
        }
    }

    /** The attempt's span, open on this thread until the attempt has ended; tracing never fails an attempt. */
    TaskTracing.AttemptSpan span(ClaimedTask task) {
        if (tracing == TaskTracing.NONE) {
            return TaskTracing.AttemptSpan.NONE;
        }
        try {
            TaskTracing.AttemptSpan span = tracing.attemptStarted(task);
            return span == null ? TaskTracing.AttemptSpan.NONE : () -> close(span, task);
        } catch (RuntimeException e) {
            log.warn(
                    "Tracing could not start the span of task {} ({}); it runs without one", task.id(), task.kind(), e);
            return TaskTracing.AttemptSpan.NONE;
        }
    }

    private static void close(TaskTracing.AttemptSpan span, ClaimedTask task) {
        try {
            span.close();
        } catch (RuntimeException e) {
            log.warn("Tracing could not end the span of task {} ({})", task.id(), task.kind(), e);
        }
    }

    private boolean runLogged(ClaimedTask task, Runnable whenCompleted) {
        Attempt attempt = prepare(task);
        if (attempt == null) {
            return false;
        }
        if (attempt.kind.definition().mode() == ExecutionMode.TRANSACTIONAL) {
            // The handler's transaction holds the row lock; a heartbeat would only wait on it.
            enders.leases().forgetBeforeLocking(List.of(task.id()));
            runInTransaction(attempt);
            return false;
        }
        enders.leases().hold(task.id(), attempt.kind.lease());
        return runOutsideTransaction(task, attempt.kind, attempt.payload, whenCompleted);
    }

    /**
     * How many tasks of {@code task}'s kind may share one transaction: its kind's group commit, or 1 for a kind
     * this node does not know.
     */
    int groupSize(ClaimedTask task) {
        RegisteredKind kind = kinds.of(task);
        return kind == null ? 1 : kind.definition().groupCommit();
    }

    /**
     * Runs claimed tasks of one group-commit kind in one transaction, each under a savepoint; see {@link
     * GroupRunner}. A group of one runs as {@link #run} does.
     */
    void runGroup(List<ClaimedTask> tasks) {
        if (tasks.size() == 1) {
            run(tasks.get(0), () -> {});
            return;
        }
        groups.run(tasks);
    }

    /**
     * Looks up the task's kind and decodes its payload; settles the task and returns null when either fails.
     */
    Attempt prepare(ClaimedTask task) {
        RegisteredKind kind = kinds.of(task);
        if (kind == null) {
            settler.settle(task, null, new Ending.UnknownKind(task.kind(), task.queue()));
            return null;
        }
        Object payload;
        try {
            payload = kinds.codec().decode(task.payloadJson(), kind.definition().payloadType());
        } catch (PayloadDecodingException e) {
            settler.settle(task, kind, new Ending.UnreadablePayload(e.getMessage()));
            return null;
        } catch (Throwable e) {
            // Not the payload's fault (an OutOfMemoryError on a huge payload): a failed attempt, recorded now.
            settler.settle(task, kind, new Ending.Threw(e));
            return null;
        }
        return new Attempt(task, kind, payload, newLog());
    }

    /**
     * Runs a transactional attempt: the handler, its writes and the task's end share one transaction, which
     * ends the task through one {@link Finish}. Whatever ends the attempt other than a commit is settled
     * after the rollback.
     */
    private void runInTransaction(Attempt attempt) {
        ClaimedTask task = attempt.task;
        RegisteredKind kind = attempt.kind;
        try (Finish finish = finisher.open()) {
            try {
                boolean committedRetry = storage.hostTransactions()
                        .inTransaction(storage.dataSource(), connection -> attempt(connection, attempt, finish));
                committed(attempt, committedRetry);
            } catch (LeaseLost lost) {
                observers.stats().recordFencedOff(1);
                log.warn("Task {} ({}) lost its lease before it started; another node has it", task.id(), task.kind());
            } catch (RollBack rolledBack) {
                settler.settle(task, kind, attempt.ended(rolledBack.ending));
            } catch (Throwable failure) {
                // The transaction rolled back, so the handler's writes are gone; record the attempt.
                settler.settle(task, kind, attempt.ended(endingOf(failure, attempt.began)));
            }
        }
    }

    /**
     * The attempt's transaction: locks the row checking the lease token, runs the handler, and ends the task.
     *
     * @return true if the attempt ended in a retry or failure that keeps the handler's writes; false if it
     *     succeeded (or its row was no longer its own to complete)
     */
    boolean attempt(Connection connection, Attempt attempt, Finish finish) throws Exception {
        attempt.began = true;
        ClaimedTask task = attempt.task;
        if (!storage.tasks().lockForRun(connection, task)) {
            throw new LeaseLost();
        }
        // A stalled or partitioned worker must not hold the row lock for ever: past two leases of
        // idleness the server ends the transaction, and rescue can take the task. Two, not one: a
        // live run whose lease has just lapsed keeps its row (rescue skips locked rows), as before.
        storage.dialect()
                .boundTransaction(connection, attempt.kind.lease().multipliedBy(2), attempt.kind.executionTimeout());
        return runLocked(connection, attempt, finish, false) == Handled.KEPT_WRITES;
    }

    /** How a transactional attempt whose row is locked ended on its transaction, if it did not throw. */
    enum Handled {
        /** The handler's failure or retry request was written, keeping its writes. */
        KEPT_WRITES,
        /** The handler returned and the task's completion is written. */
        COMPLETED,
        /**
         * The handler returned; the task has no continuations, dependents or batch, and its completion is left to
         * the caller, which writes it with others on the same transaction.
         */
        SUCCEEDED_UNWRITTEN
    }

    /**
     * Runs the handler of an attempt whose row this transaction has locked, and ends it on the transaction. An
     * ending that does not keep the handler's writes is thrown, as in {@link #attempt}.
     *
     * @param leaveSimpleSuccess whether a success with nothing linked is left for the caller to write
     */
    Handled runLocked(Connection connection, Attempt attempt, Finish finish, boolean leaveSimpleSuccess)
            throws Exception {
        attempt.began = true;
        ClaimedTask task = attempt.task;
        observers.listener().started(task.kind(), task.queue(), task.attempt());
        GuardedConnection guarded = GuardedConnection.around(connection);
        AttemptContext context = new AttemptContext(
                task, guarded.connection(), attempt.lines, continuations, new ProgressReporter(storage, task));
        if (handleKeepingWrites(connection, attempt, guarded, context, finish)) {
            return Handled.KEPT_WRITES;
        }
        if (guarded.misuse() != null) {
            throw new RollBack(misused(guarded));
        }
        if (leaveSimpleSuccess
                && context.continuations().isEmpty()
                && task.links().isNone()) {
            return Handled.SUCCEEDED_UNWRITTEN;
        }
        succeed(connection, attempt, context.continuations(), finish);
        return Handled.COMPLETED;
    }

    /**
     * Runs the handler on the attempt's transaction. An ending that does not keep the handler's writes is
     * thrown: {@link RollBack} with how the attempt ended, or the handler's own failure.
     *
     * @return true if the handler's failure or retry request was written on its transaction, keeping its
     *     writes; false if the handler returned
     */
    private boolean handleKeepingWrites(
            Connection connection, Attempt attempt, GuardedConnection guarded, AttemptContext context, Finish finish)
            throws Exception {
        try {
            handle(attempt.kind, attempt.payload, context);
            return false;
        } catch (CancelledBy cancelled) {
            throw new RollBack(new Ending.Cancelled(cancelled.getCause()));
        } catch (RetryLater request) {
            Ending later = new Ending.RetryLaterRequested(request.delay(), request.getMessage());
            if (guarded.misuse() == null
                    && request.writesCommit()
                    && settler.settleKeepingWrites(
                            connection, finish, attempt.task, attempt.kind, attempt.ended(later))) {
                return true;
            }
            throw new RollBack(guarded.misuse() == null ? later : misused(guarded));
        } catch (Snooze snooze) {
            throw new RollBack(guarded.misuse() == null ? new Ending.Snoozed(snooze.delay()) : misused(guarded));
        } catch (Exception failure) {
            // The kind named this exception as one that keeps the attempt's writes.
            if (guarded.misuse() == null
                    && !(failure instanceof ExecutionTimeoutException)
                    && attempt.kind.definition().commitsWritesOn(failure)
                    && !storage.transactions().isLockConflict(failure)
                    && settler.settleKeepingWrites(
                            connection, finish, attempt.task, attempt.kind, attempt.ended(new Ending.Threw(failure)))) {
                return true;
            }
            throw failure;
        }
    }

    /**
     * Completes the task on the attempt's transaction: its row, its history row, its continuations, and what
     * follows in its workflow and batch.
     */
    private void succeed(Connection connection, Attempt attempt, List<NewTask> next, Finish finish)
            throws SQLException {
        ClaimedTask task = attempt.task;
        finish.end(connection, task, TaskState.SUCCEEDED, c -> {
            if (!enders.writer().succeedInTransaction(c, task, attempt.ended(new Ending.Succeeded()))) {
                return false;
            }
            if (!next.isEmpty()) {
                finish.continueWith(c, task.id(), next);
            }
            return true;
        });
    }

    /** Counts an attempt whose transaction committed. */
    void committed(Attempt attempt, boolean committedRetry) {
        ClaimedTask task = attempt.task;
        settler.committed(task);
        if (!committedRetry) {
            observers.stats().recordSucceeded(1);
            observers
                    .listener()
                    .succeeded(task.kind(), task.queue(), Duration.ofNanos(System.nanoTime() - attempt.begin));
        }
    }

    /** A processing log for an attempt, or {@code null} when processing logs are off. */
    private ProcessingLog newLog() {
        return stores.attempts().capturesLogs() ? new ProcessingLog() : null;
    }

    private static String text(ProcessingLog lines) {
        return lines == null ? null : lines.text();
    }

    private static long micros(long beginNanos) {
        return (System.nanoTime() - beginNanos) / 1_000;
    }

    /** How an attempt ended that {@code failure} stopped, before or after its transaction began. */
    Ending endingOf(Throwable failure, boolean began) {
        if (!began) {
            return new Ending.NotStarted(failure);
        }
        if (failure instanceof ExecutionTimeoutException) {
            // The interrupt may have broken the connection too: the handler's overrun is the cause.
            return new Ending.Threw(failure);
        }
        if (storage.transactions().isLockConflict(failure)) {
            storage.transactions().countLockConflict("run");
            return new Ending.LostLockConflict(failure, 1);
        }
        if (storage.transactions().isConnectionFailure(failure)) {
            return new Ending.Interrupted(failure, 1);
        }
        return new Ending.Threw(failure);
    }

    private static Ending misused(GuardedConnection guarded) {
        return new Ending.Threw(new IllegalStateException(guarded.misuse()));
    }

    private boolean runOutsideTransaction(
            ClaimedTask task, RegisteredKind kind, Object payload, Runnable whenCompleted) {
        ProcessingLog lines = newLog();
        observers.listener().started(task.kind(), task.queue(), task.attempt());
        long begin = System.nanoTime();
        AttemptContext context;
        try {
            context = new AttemptContext(task, null, lines, continuations, new ProgressReporter(storage, task));
            handle(kind, payload, context);
        } catch (CancelledBy cancelled) {
            settler.settle(
                    task, kind, new Ended(new Ending.Cancelled(cancelled.getCause()), micros(begin), text(lines)));
            return false;
        } catch (RetryLater request) {
            settler.settle(
                    task,
                    kind,
                    new Ended(
                            new Ending.RetryLaterRequested(request.delay(), request.getMessage()),
                            micros(begin),
                            text(lines)));
            return false;
        } catch (Snooze snooze) {
            settler.settle(task, kind, new Ended(new Ending.Snoozed(snooze.delay()), micros(begin), text(lines)));
            return false;
        } catch (Throwable failure) {
            settler.settle(task, kind, new Ended(new Ending.Threw(failure), micros(begin), text(lines)));
            return false;
        }
        observers.listener().succeeded(task.kind(), task.queue(), Duration.ofNanos(System.nanoTime() - begin));
        enders.completer()
                .complete(
                        task,
                        new Ended(new Ending.Succeeded(), micros(begin), text(lines)),
                        context.continuations(),
                        whenCompleted);
        return true;
    }

    @SuppressWarnings("unchecked")
    private void handle(RegisteredKind kind, Object payload, AttemptContext context) throws Exception {
        running.began(context.taskId(), context);
        ProcessingLog lines = context.processingLog();
        if (lines != null) {
            lines.bind();
        }
        Duration timeout = kind.executionTimeout();
        Deadline deadline = timeout == null ? null : Deadline.start(timeout);
        boolean overran;
        try {
            ((TaskHandler<Object>) kind.definition().handler()).handle(payload, context);
            // A handler that ignored the interrupt and returned still ran too long.
            overran = deadline != null && deadline.end();
        } catch (Exception | Error stopped) {
            // However the handler stopped after a cancel request, the task is cancelled.
            if (context.isCancelled()) {
                throw new CancelledBy(stopped);
            }
            if (deadline != null && deadline.end()) {
                throw new ExecutionTimeoutException(timeout, stopped);
            }
            throw stopped;
        } finally {
            if (deadline != null) {
                deadline.end();
            }
            if (lines != null) {
                lines.unbind();
            }
            running.ended(context.taskId());
            context.ended();
        }
        if (overran) {
            throw new ExecutionTimeoutException(timeout, null);
        }
    }

    /** One transactional attempt: its task, kind and payload, and what it has recorded so far. */
    static final class Attempt {
        final ClaimedTask task;
        final RegisteredKind kind;
        private final Object payload;
        private final ProcessingLog lines;
        private final long begin = System.nanoTime();
        /** Whether the transaction began (a connection was had). */
        boolean began;

        Attempt(ClaimedTask task, RegisteredKind kind, Object payload, ProcessingLog lines) {
            this.task = task;
            this.kind = kind;
            this.payload = payload;
            this.lines = lines;
        }

        /** How the attempt ended, with its duration so far and its processing log. */
        Ended ended(Ending ending) {
            return new Ended(ending, micros(begin), text(lines));
        }
    }

    /** The handler stopped after an operator asked to cancel its task. */
    private static final class CancelledBy extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CancelledBy(Throwable how) {
            super(how.getClass().getName(), how, false, false);
        }
    }

    /** The row was not ours to lock: the lease was taken back before the run began. */
    static final class LeaseLost extends RuntimeException {
        private static final long serialVersionUID = 1L;

        LeaseLost() {
            super(null, null, false, false);
        }
    }

    /** Rolls the attempt's transaction back, then ends the attempt as {@link #ending} says. */
    static final class RollBack extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient Ending ending;

        RollBack(Ending ending) {
            super(null, null, false, false);
            this.ending = ending;
        }
    }
}
