package dev.errand.console.api;

import dev.errand.Errand;
import dev.errand.admin.TaskLinks;
import dev.errand.batch.BatchEvent;
import dev.errand.batch.BatchProgress;
import dev.errand.batch.BatchQuery;
import dev.errand.batch.BatchSummary;
import dev.errand.batch.CallbackState;
import dev.errand.batch.WorkflowCancellation;
import dev.errand.task.TaskState;
import dev.errand.workflow.WorkflowGraph;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * Batches and workflows: the list of batches, one batch's progress and callbacks, cancelling it, a workflow's
 * graph, and what a task is linked to.
 */
final class BatchApi {

    private final Errand errand;

    BatchApi(Errand errand) {
        this.errand = errand;
    }

    /** Batches newest first; {@code finished} (true, false or absent), {@code before} (an id), {@code limit}. */
    ServerResponse list(ServerRequest request) {
        int limit = Params.integer(request, "limit", 50, 1, BatchQuery.MAX_LIMIT);
        String finished = Params.text(request, "finished");
        String before = Params.text(request, "before");
        BatchQuery query = BatchQuery.newest(limit)
                .withFinished(finished == null ? null : flag(finished))
                .withBeforeId(before == null ? null : Params.positiveLong(before, "before"));
        List<BatchSummary> batches = errand.batches().list(query);
        List<Object> items = new ArrayList<>();
        batches.forEach(batch -> items.add(view(batch)));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("items", items);
        body.put("limit", limit);
        body.put("finished", query.finished());
        body.put(
                "nextBefore",
                batches.size() == limit ? batches.get(batches.size() - 1).batchId() : null);
        return Json.ok(body);
    }

    ServerResponse one(ServerRequest request) {
        long id = Params.id(request, "batch id");
        BatchProgress progress = find(id);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("batchId", progress.batchId());
        body.put("total", progress.total());
        body.put("succeeded", progress.succeeded());
        body.put("failed", progress.failed());
        body.put("cancelled", progress.cancelled());
        body.put("pending", progress.pending());
        body.put("finished", progress.isFinished());
        body.put("cancelledAt", progress.cancelledAt());
        Map<String, Long> fired = new LinkedHashMap<>();
        errand.batches()
                .firedCallbacks(id)
                .forEach((event, taskId) -> fired.put(event.name().toLowerCase(Locale.ROOT), taskId));
        body.put("firedCallbacks", fired);
        // The batch with the highest id below id + 1 is this one: its summary holds the declared callbacks.
        List<BatchSummary> summary = errand.batches().list(BatchQuery.newest(1).withBeforeId(id + 1));
        body.put(
                "callbacks",
                summary.isEmpty() || summary.get(0).batchId() != id
                        ? List.of()
                        : callbacks(summary.get(0).callbacks()));
        body.put("createdAt", summary.isEmpty() ? null : summary.get(0).createdAt());
        return Json.ok(body);
    }

    ServerResponse cancel(ServerRequest request) {
        long id = Params.id(request, "batch id");
        find(id);
        long cancelled = errand.batches().cancel(id);
        return Json.ok(Map.of("batchId", id, "action", "cancel", "cancelledTasks", cancelled));
    }

    /** Cancels the unfinished steps of the workflow that task {@code id} is a step of. */
    ServerResponse cancelWorkflow(ServerRequest request) {
        long id = Params.id(request, "workflow id");
        WorkflowCancellation done = errand.batches()
                .cancelWorkflow(id)
                .orElseThrow(() -> ApiException.notFound("Task " + id + " is no step of a stored workflow"));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("workflowId", done.workflowId());
        body.put("action", "cancel");
        body.put("cancelledSteps", done.cancelled());
        body.put("askedToStop", done.askedToStop());
        return Json.ok(body);
    }

    /** The graph of the workflow that task {@code id} is a step of. */
    ServerResponse workflow(ServerRequest request) {
        long id = Params.id(request, "workflow id");
        WorkflowGraph graph = errand.batches()
                .workflow(id)
                .orElseThrow(() -> ApiException.notFound("Task " + id + " is no step of a stored workflow"));
        List<Object> steps = new ArrayList<>();
        for (WorkflowGraph.Step step : graph.steps()) {
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("taskId", step.taskId());
            view.put("step", step.step());
            view.put("state", state(step.state()));
            steps.add(view);
        }
        List<Object> edges = new ArrayList<>();
        graph.edges().forEach(edge -> edges.add(Map.of("from", edge.fromTaskId(), "to", edge.toTaskId())));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("workflowId", graph.workflowId());
        body.put("steps", steps);
        body.put("edges", edges);
        return Json.ok(body);
    }

    /** What task {@code id} is linked to: batch, workflow and step, dependencies, dependents, open conditions. */
    ServerResponse links(ServerRequest request) {
        long id = Params.id(request, "task id");
        TaskLinks links = errand.admin().links(id).orElseThrow(() -> ApiException.notFound("There is no task " + id));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("taskId", id);
        body.put("batchId", links.batchId());
        body.put("workflowId", links.workflowId());
        body.put("step", links.step());
        body.put("dependsOn", links.dependsOn());
        body.put("dependents", links.dependents());
        body.put("openConditions", links.openConditions());
        return Json.ok(body);
    }

    private static Map<String, Object> view(BatchSummary batch) {
        BatchProgress progress = batch.progress();
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("batchId", batch.batchId());
        view.put("createdAt", batch.createdAt());
        view.put("total", progress.total());
        view.put("succeeded", progress.succeeded());
        view.put("failed", progress.failed());
        view.put("cancelled", progress.cancelled());
        view.put("pending", progress.pending());
        view.put("finished", progress.isFinished());
        view.put("cancelledAt", progress.cancelledAt());
        view.put("callbacks", callbacks(batch.callbacks()));
        return view;
    }

    private static List<Object> callbacks(Map<BatchEvent, CallbackState> callbacks) {
        List<Object> views = new ArrayList<>();
        callbacks.forEach((event, state) -> {
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("event", event.name().toLowerCase(Locale.ROOT));
            view.put("fired", state.fired());
            view.put("taskId", state.firedTaskId());
            views.add(view);
        });
        return views;
    }

    private static String state(TaskState state) {
        return state == null ? null : state.dbValue();
    }

    private static Boolean flag(String text) {
        return switch (text) {
            case "true" -> true;
            case "false" -> false;
            default -> throw ApiException.badRequest("finished must be true or false, got '" + Params.cut(text) + "'");
        };
    }

    private BatchProgress find(long id) {
        return errand.batches().progress(id).orElseThrow(() -> ApiException.notFound("There is no batch " + id));
    }
}
