package dev.errand.engine;

import dev.errand.ErrandSettings;
import dev.errand.json.PayloadCodec;
import dev.errand.json.PayloadDecodingException;
import dev.errand.store.ClaimedTask;
import dev.errand.store.TaskStore;
import dev.errand.store.Transactions;
import dev.errand.task.ExecutionMode;
import dev.errand.task.RetryLater;
import dev.errand.task.TaskHandler;
import java.time.Duration;
import java.util.Map;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one claimed task to the end of its attempt. Transactional kinds: lock the row checking the
 * lease token, run the handler on that transaction, complete, commit. Non-transactional kinds: run
 * the handler under the lease, then hand the success to the batched completer.
 */
final class TaskRunner {

    private static final Logger log = LoggerFactory.getLogger(TaskRunner.class);

    private final DataSource dataSource;
    private final TaskStore store;
    private final ErrandSettings settings;
    private final Map<String, RegisteredKind> kinds;
    private final PayloadCodec codec;
    private final LeaseKeeper leases;
    private final Completer completer;
    private final Outcomes outcomes;
    private final ErrorTexts errors;
    private final EngineStats stats;
    private final Transactions transactions;

    TaskRunner(Engine engine) {
        this.transactions = engine.transactions;
        this.dataSource = engine.dataSource;
        this.store = engine.store;
        this.settings = engine.settings;
        this.kinds = engine.kinds;
        this.codec = engine.codec;
        this.leases = engine.leases;
        this.completer = engine.completer;
        this.outcomes = engine.outcomes;
        this.errors = engine.errors;
        this.stats = engine.stats;
    }

    /**
     * Runs the attempt.
     *
     * @param whenCompleted called once the success of a non-transactional run is in the database,
     *     by the completer after its batch commits
     * @return true if the success was handed to the completer (which then calls {@code whenCompleted});
     *     false if the attempt is over (the caller frees its slot itself)
     */
    boolean run(ClaimedTask task, Runnable whenCompleted) {
        RegisteredKind kind = kinds.get(task.kind());
        if (kind == null) {
            leases.forget(task.id());
            outcomes.unknownKind(task);
            return false;
        }
        Object payload;
        try {
            payload = codec.decode(task.payloadJson(), kind.definition().payloadType());
        } catch (PayloadDecodingException e) {
            // Retrying cannot repair a payload: fail at once, with the error on the row.
            leases.forget(task.id());
            outcomes.failForGood(task, kind.definition().failureCallback(), errors.of(task, e));
            return false;
        }
        if (kind.definition().mode() == ExecutionMode.TRANSACTIONAL) {
            leases.forget(task.id());
            runInTransaction(task, kind, payload);
            return false;
        }
        return runOutsideTransaction(task, kind, payload, whenCompleted);
    }

    private void runInTransaction(ClaimedTask task, RegisteredKind kind, Object payload) {
        long offset = TaskStore.micros(settings.clock().offset());
        long begin = System.nanoTime();
        try {
            settings.transactionRunner().inTransaction(dataSource, connection -> {
                if (!store.lockForRun(connection, task, offset)) {
                    throw new LeaseLost();
                }
                settings.listener().started(task.kind(), task.queue(), task.attempt());
                try {
                    handle(kind, payload, new AttemptContext(task, connection));
                } catch (RetryLater request) {
                    if (request.writesCommit() && outcomes.retryLaterInTransaction(connection, task, request)) {
                        return null;
                    }
                    throw new RollBackAndRetryLater(request);
                }
                store.succeed(connection, task, offset);
                return null;
            });
            // Committed: the handler's writes and the completion, together.
            outcomes.committed(task);
            stats.recordSucceeded(1);
            settings.listener().succeeded(task.kind(), task.queue(), Duration.ofNanos(System.nanoTime() - begin));
        } catch (LeaseLost lost) {
            stats.recordFencedOff(1);
            log.warn("Task {} ({}) lost its lease before it started; another node has it", task.id(), task.kind());
        } catch (RollBackAndRetryLater rolledBack) {
            outcomes.retryLater(task, kind, rolledBack.request);
        } catch (Throwable failure) {
            // The transaction rolled back, so the handler's writes are gone; record the attempt.
            rethrowIfFatal(failure);
            if (transactions.isLockConflict(failure)) {
                outcomes.lockConflict(task, kind, failure);
            } else {
                outcomes.attemptFailed(task, kind, failure);
            }
        }
    }

    /** The row was not ours to lock: the lease was taken back before the run began. */
    private static final class LeaseLost extends RuntimeException {
        private static final long serialVersionUID = 1L;

        LeaseLost() {
            super(null, null, false, false);
        }
    }

    /** Rolls the attempt back, then reschedules it as the handler asked. */
    private static final class RollBackAndRetryLater extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient RetryLater request;

        RollBackAndRetryLater(RetryLater request) {
            super(null, null, false, false);
            this.request = request;
        }
    }

    private boolean runOutsideTransaction(ClaimedTask task, RegisteredKind kind, Object payload,
            Runnable whenCompleted) {
        leases.hold(task.id(), kind.lease());
        settings.listener().started(task.kind(), task.queue(), task.attempt());
        long begin = System.nanoTime();
        try {
            handle(kind, payload, new AttemptContext(task, null));
        } catch (RetryLater request) {
            leases.forget(task.id());
            outcomes.retryLater(task, kind, request);
            return false;
        } catch (Throwable failure) {
            leases.forget(task.id());
            rethrowIfFatal(failure);
            outcomes.attemptFailed(task, kind, failure);
            return false;
        }
        settings.listener().succeeded(task.kind(), task.queue(), Duration.ofNanos(System.nanoTime() - begin));
        completer.complete(task, whenCompleted);
        return true;
    }

    @SuppressWarnings("unchecked")
    private static void handle(RegisteredKind kind, Object payload, AttemptContext context) throws Exception {
        ((TaskHandler<Object>) kind.definition().handler()).handle(payload, context);
    }

    private static void rethrowIfFatal(Throwable failure) {
        if (failure instanceof VirtualMachineError fatal) {
            throw fatal;
        }
    }
}
