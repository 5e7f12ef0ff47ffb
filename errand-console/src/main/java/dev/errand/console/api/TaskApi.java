package dev.errand.console.api;

import dev.errand.Errand;
import dev.errand.admin.Cancellation;
import dev.errand.admin.Page;
import dev.errand.admin.TaskQuery;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.Task;
import dev.errand.task.TaskState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/** Tasks: the filtered list, one task with its attempts and chain, and the actions on one task. */
final class TaskApi {

    private final Errand errand;

    TaskApi(Errand errand) {
        this.errand = errand;
    }

    ServerResponse list(ServerRequest request) {
        TaskQuery.Builder query = TaskQuery.builder()
                .offset(Params.integer(request, "offset", 0, 0, Integer.MAX_VALUE))
                .limit(Params.integer(request, "limit", 50, 1, TaskQuery.MAX_LIMIT));
        TaskState state = Params.enumeration(request, "state", TaskState.class);
        if (state != null) {
            query.state(state);
        }
        String kind = Params.text(request, "kind");
        if (kind != null) {
            query.kind(kind);
        }
        String queue = Params.text(request, "queue");
        if (queue != null) {
            query.queue(queue);
        }
        Page<Task> page = errand.admin().list(query.build());
        List<Object> items = new ArrayList<>();
        page.items().forEach(task -> items.add(Views.taskSummary(task)));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("items", items);
        body.put("total", page.total());
        body.put("offset", page.offset());
        body.put("limit", page.limit());
        body.put("hasNext", page.hasNext());
        return Json.ok(body);
    }

    ServerResponse one(ServerRequest request) {
        long id = Params.id(request, "task id");
        Task task = find(id);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("task", Views.task(task));
        body.put("chain", errand.admin().chain(id));
        body.put("historyEnabled", errand.settings().historyEnabled());
        List<Object> attempts = new ArrayList<>();
        if (errand.settings().historyEnabled()) {
            errand.history().attempts(id).forEach(attempt -> attempts.add(Views.attempt(attempt)));
        }
        body.put("attempts", attempts);
        body.put("actions", actions(task.state()));
        return Json.ok(body);
    }

    ServerResponse retry(ServerRequest request) {
        long id = Params.id(request, "task id");
        Task task = find(id);
        if (!errand.admin().retryNow(id)) {
            throw refused(task, "retried", "failed or cancelled");
        }
        return done(id, "retry");
    }

    ServerResponse cancel(ServerRequest request) {
        long id = Params.id(request, "task id");
        Task task = find(id);
        if (!errand.admin().cancel(id)) {
            throw refused(task, "cancelled", "pending or waiting (ask a running task to stop with request-cancel)");
        }
        return done(id, "cancel");
    }

    ServerResponse requestCancel(ServerRequest request) {
        long id = Params.id(request, "task id");
        Task task = find(id);
        Cancellation result = errand.admin().requestCancel(id);
        if (result == Cancellation.NOT_CANCELLABLE) {
            throw refused(task, "cancelled", "pending, waiting or running");
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", id);
        body.put("action", "request-cancel");
        body.put("result", result.name().toLowerCase(java.util.Locale.ROOT));
        return Json.ok(body);
    }

    ServerResponse reschedule(ServerRequest request) {
        long id = Params.id(request, "task id");
        Instant runAt = Params.instant(Params.field(Json.body(request), "runAt"), "runAt");
        if (runAt.isBefore(TaskRequest.EARLIEST_RUN_AT) || runAt.isAfter(TaskRequest.LATEST_RUN_AT)) {
            throw ApiException.badRequest("runAt must be between " + TaskRequest.EARLIEST_RUN_AT + " and "
                    + TaskRequest.LATEST_RUN_AT + ", got " + runAt);
        }
        Task task = find(id);
        if (!errand.admin().reschedule(id, runAt)) {
            throw refused(task, "rescheduled", "pending (run a failed task again with retry)");
        }
        return done(id, "reschedule");
    }

    ServerResponse delete(ServerRequest request) {
        long id = Params.id(request, "task id");
        if (!errand.admin().delete(id)) {
            throw ApiException.notFound("There is no task " + id);
        }
        return done(id, "delete");
    }

    private Task find(long id) {
        return errand.admin().find(id).orElseThrow(() -> ApiException.notFound("There is no task " + id));
    }

    private static ApiException refused(Task task, String done, String allowed) {
        return ApiException.conflict("Task " + task.id() + " is " + task.state().dbValue() + "; only a task that is "
                + allowed + " can be " + done);
    }

    private static ServerResponse done(long id, String action) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", id);
        body.put("action", action);
        body.put("result", "done");
        return Json.ok(body);
    }

    /** The actions the task's state allows, so that the page offers only those. */
    private static List<String> actions(TaskState state) {
        List<String> actions = new ArrayList<>();
        switch (state) {
            case FAILED, CANCELLED -> actions.add("retry");
            case PENDING -> {
                actions.add("cancel");
                actions.add("reschedule");
            }
            case WAITING -> actions.add("cancel");
            case RUNNING -> actions.add("request-cancel");
            default -> {}
        }
        actions.add("delete");
        return actions;
    }
}
