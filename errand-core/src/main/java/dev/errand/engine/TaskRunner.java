package dev.errand.engine;

import dev.errand.ErrandSettings;
import dev.errand.json.PayloadCodec;
import dev.errand.json.PayloadDecodingException;
import dev.errand.store.ClaimedTask;
import dev.errand.store.Jdbc;
import dev.errand.store.TaskStore;
import dev.errand.task.ExecutionMode;
import dev.errand.task.RetryLater;
import dev.errand.task.TaskHandler;
import java.sql.Connection;
import java.sql.SQLException;
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

    TaskRunner(Engine engine) {
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

    void run(ClaimedTask task) {
        RegisteredKind kind = kinds.get(task.kind());
        if (kind == null) {
            leases.forget(task.id());
            outcomes.unknownKind(task);
            return;
        }
        Object payload;
        try {
            payload = codec.decode(task.payloadJson(), kind.definition().payloadType());
        } catch (PayloadDecodingException e) {
            // Retrying cannot repair a payload: fail at once, with the error on the row.
            leases.forget(task.id());
            outcomes.failForGood(task, kind.definition().failureCallback(), errors.of(task, e));
            return;
        }
        if (kind.definition().mode() == ExecutionMode.TRANSACTIONAL) {
            leases.forget(task.id());
            runInTransaction(task, kind, payload);
        } else {
            runOutsideTransaction(task, kind, payload);
        }
    }

    private void runInTransaction(ClaimedTask task, RegisteredKind kind, Object payload) {
        long offset = TaskStore.micros(settings.clock().offset());
        try (Connection connection = dataSource.getConnection()) {
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(false);
            try {
                if (!store.lockForRun(connection, task, offset)) {
                    connection.rollback();
                    stats.recordFencedOff(1);
                    log.warn("Task {} ({}) lost its lease before it started; another node has it", task.id(),
                            task.kind());
                    return;
                }
                try {
                    handle(kind, payload, new AttemptContext(task, connection));
                } catch (RetryLater request) {
                    if (request.writesCommit() && outcomes.retryLaterInTransaction(connection, task, request)) {
                        connection.commit();
                    } else {
                        connection.rollback();
                        outcomes.retryLater(task, kind, request);
                    }
                    return;
                } catch (Throwable failure) {
                    Jdbc.rollbackQuietly(connection, failure);
                    rethrowIfFatal(failure);
                    outcomes.attemptFailed(task, kind, failure);
                    return;
                }
                store.succeed(connection, task, offset);
                connection.commit();
                stats.recordSucceeded(1);
            } finally {
                restoreAutoCommit(connection, autoCommit);
            }
        } catch (SQLException e) {
            // The transaction did not commit, so the handler's writes are gone too; record the attempt.
            log.warn("Transactional run of task {} ({}) failed in the database: {}", task.id(), task.kind(),
                    e.getMessage());
            outcomes.attemptFailed(task, kind, e);
        }
    }

    private void runOutsideTransaction(ClaimedTask task, RegisteredKind kind, Object payload) {
        leases.hold(task.id(), kind.lease());
        try {
            handle(kind, payload, new AttemptContext(task, null));
        } catch (RetryLater request) {
            leases.forget(task.id());
            outcomes.retryLater(task, kind, request);
            return;
        } catch (Throwable failure) {
            leases.forget(task.id());
            rethrowIfFatal(failure);
            outcomes.attemptFailed(task, kind, failure);
            return;
        }
        completer.complete(task);
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

    private static void restoreAutoCommit(Connection connection, boolean autoCommit) {
        try {
            connection.setAutoCommit(autoCommit);
        } catch (SQLException e) {
            log.debug("Could not restore auto-commit on a pooled connection: {}", e.getMessage());
        }
    }
}
