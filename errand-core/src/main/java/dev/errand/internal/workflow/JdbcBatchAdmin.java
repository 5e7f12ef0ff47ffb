package dev.errand.internal.workflow;

import dev.errand.batch.BatchAdmin;
import dev.errand.batch.BatchEvent;
import dev.errand.batch.BatchProgress;
import dev.errand.batch.BatchQuery;
import dev.errand.batch.BatchSummary;
import dev.errand.error.ErrandException;
import dev.errand.internal.store.Storage;
import dev.errand.workflow.WorkflowGraph;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** The admin API on batches: checks the arguments, then runs each action in its own transaction. */
public final class JdbcBatchAdmin implements BatchAdmin {

    private final Storage storage;
    private final WorkflowStore workflows;
    private final Finisher finisher;

    /** Creates the admin API on a node's storage, its batch statements and its finisher. */
    public JdbcBatchAdmin(Storage storage, WorkflowStore workflows, Finisher finisher) {
        this.storage = storage;
        this.workflows = workflows;
        this.finisher = finisher;
    }

    @Override
    public Optional<BatchProgress> progress(long batchId) {
        requireId(batchId);
        return run("batchProgress", c -> workflows.progress(c, batchId));
    }

    @Override
    public long cancel(long batchId) {
        requireId(batchId);
        long cancelled;
        try (Finish finish = finisher.open()) {
            cancelled = run(
                    "cancelBatch",
                    c -> finish.cancelBatch(c, batchId, "Cancelled: its batch " + batchId + " was cancelled"));
        }
        if (cancelled < 0) {
            throw new IllegalArgumentException("There is no batch " + batchId + "; pass the id of EnqueuedBatch.id()");
        }
        return cancelled;
    }

    @Override
    public Map<BatchEvent, Long> firedCallbacks(long batchId) {
        requireId(batchId);
        return run("batchCallbacks", c -> {
            Map<BatchEvent, Long> fired = new EnumMap<>(BatchEvent.class);
            workflows
                    .firedCallbacks(c, batchId)
                    .forEach((event, task) -> fired.put(BatchEvent.valueOf(event.toUpperCase(Locale.ROOT)), task));
            return fired;
        });
    }

    @Override
    public List<BatchSummary> list(BatchQuery query) {
        if (query == null) {
            throw new IllegalArgumentException(
                    "query must not be null: use BatchQuery.newest(limit) and its with... methods");
        }
        return run("listBatches", c -> workflows.graphs().list(c, query));
    }

    @Override
    public Optional<WorkflowGraph> workflow(long taskId) {
        if (taskId <= 0) {
            throw new IllegalArgumentException(
                    "taskId must be positive, was " + taskId + "; use a step's id from EnqueuedWorkflow.taskIds()");
        }
        return run("workflowGraph", c -> workflows.graphs().graphOf(c, taskId));
    }

    private static void requireId(long batchId) {
        if (batchId <= 0) {
            throw new IllegalArgumentException(
                    "batchId must be positive, was " + batchId + "; use the id of EnqueuedBatch.id()");
        }
    }

    private <T> T run(String operation, dev.errand.internal.store.Jdbc.ConnectionWork<T> work) {
        try {
            return storage.transactions().run(operation, work);
        } catch (SQLException e) {
            throw new ErrandException(operation, e);
        }
    }
}
