package dev.errand.internal.workflow;

import dev.errand.admin.Cancellation;
import dev.errand.admin.TaskAdmin;
import dev.errand.batch.BatchAdmin;
import dev.errand.batch.BatchEvent;
import dev.errand.batch.BatchProgress;
import dev.errand.batch.BatchQuery;
import dev.errand.batch.BatchSummary;
import dev.errand.batch.WorkflowCancellation;
import dev.errand.error.ErrandException;
import dev.errand.internal.store.Storage;
import dev.errand.task.TaskState;
import dev.errand.workflow.WorkflowGraph;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** The admin API on batches: checks the arguments, then runs each action in its own transaction. */
public final class JdbcBatchAdmin implements BatchAdmin {

    private static final java.util.Set<TaskState> ENDED =
            java.util.EnumSet.of(TaskState.SUCCEEDED, TaskState.FAILED, TaskState.CANCELLED);

    private final Storage storage;
    private final WorkflowStore workflows;
    private final Finisher finisher;
    private final TaskAdmin tasks;

    /**
     * Creates the admin API on a node's storage, its batch statements and its finisher, with the task admin that
     * cancels a workflow's steps one by one.
     */
    public JdbcBatchAdmin(Storage storage, WorkflowStore workflows, Finisher finisher, TaskAdmin tasks) {
        this.storage = storage;
        this.workflows = workflows;
        this.finisher = finisher;
        this.tasks = tasks;
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
    public Optional<WorkflowCancellation> cancelWorkflow(long taskId) {
        Optional<WorkflowGraph> graph = workflow(taskId);
        if (graph.isEmpty()) {
            return Optional.empty();
        }
        java.util.Set<Long> unfinished = new java.util.HashSet<>();
        long asked = 0;
        for (WorkflowGraph.Step step : graph.get().steps()) {
            if (step.state() == null || ENDED.contains(step.state())) {
                continue;
            }
            unfinished.add(step.taskId());
            // Through the task admin, so that each step's dependents, batch and cancel request are kept as for
            // a cancel of that task alone. A step its dependency's cancel already ended is no longer cancellable.
            if (tasks.requestCancel(step.taskId()) == Cancellation.REQUESTED) {
                asked++;
            }
        }
        // Counted after: a step cancelled by the cancel of a step it depends on was cancelled by this call too.
        long cancelled = workflow(taskId).orElseThrow().steps().stream()
                .filter(step -> unfinished.contains(step.taskId()) && step.state() == TaskState.CANCELLED)
                .count();
        return Optional.of(new WorkflowCancellation(graph.get().workflowId(), cancelled, asked));
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
