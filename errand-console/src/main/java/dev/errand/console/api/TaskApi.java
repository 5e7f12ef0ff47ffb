package dev.errand.console.api;

import dev.errand.Errand;
import dev.errand.admin.BulkCount;
import dev.errand.admin.BulkOptions;
import dev.errand.admin.BulkResult;
import dev.errand.admin.Cancellation;
import dev.errand.admin.KeysetPage;
import dev.errand.admin.TaskCount;
import dev.errand.admin.TaskOrder;
import dev.errand.admin.TaskQuery;
import dev.errand.console.access.ConsoleAccess;
import dev.errand.console.bulk.BulkJob;
import dev.errand.console.bulk.BulkJobs;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.Task;
import dev.errand.task.TaskState;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;
import tools.jackson.databind.JsonNode;

/**
 * Tasks: the filtered list in keyset pages with its count, one task with its attempts and chain, the actions on one
 * task, and bulk actions on a filter.
 */
final class TaskApi {

    private final Errand errand;
    private final BulkJobs jobs;
    private final ConsoleAccess access;

    TaskApi(Errand errand, BulkJobs jobs, ConsoleAccess access) {
        this.errand = errand;
        this.jobs = jobs;
        this.access = access;
    }

    /** The default bound of the count that comes with a page: exact up to it, an estimate above. */
    static final int COUNT_UP_TO = 10_000;

    /** The fields a bulk action's body may hold. */
    private static final Set<String> BULK_FIELDS =
            Set.of("filter", "upToId", "chunkSize", "atMost", "runAt", "priority");

    ServerResponse list(ServerRequest request) {
        TaskQuery.Builder query = TaskFilters.read(name -> Params.text(request, name))
                .limit(Params.integer(request, "limit", 50, 1, TaskQuery.MAX_LIMIT))
                .order(order(Params.text(request, "order")));
        if (request.param("offset").isPresent()) {
            throw ApiException.badRequest("The task list pages by after and before (task ids), not by offset");
        }
        String after = Params.text(request, "after");
        if (after != null) {
            query.after(Params.positiveLong(after, "after"));
        }
        String before = Params.text(request, "before");
        if (before != null) {
            query.before(Params.positiveLong(before, "before"));
        }
        int countUpTo = Params.integer(request, "countUpTo", COUNT_UP_TO, 0, 1_000_000);
        TaskQuery built = query.build();
        KeysetPage<Task> page = errand.admin().listKeyset(built);
        // A first page with nothing after it holds every match: no second read of them (a filter on error text
        // scans the rows the other filters leave, and would scan them again to count).
        TaskCount count = built.after() == null && built.before() == null && !page.hasNext()
                ? new TaskCount(page.items().size(), true)
                : errand.admin().count(built, countUpTo);
        List<Object> items = new ArrayList<>();
        page.items().forEach(task -> items.add(Views.taskSummary(task)));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("items", items);
        body.put("next", page.next());
        body.put("previous", page.previous());
        body.put("limit", built.limit());
        body.put("order", built.order() == TaskOrder.ID_ASCENDING ? "asc" : "desc");
        body.put("count", count.count());
        body.put("countExact", count.exact());
        body.put("withinSeconds", withinSeconds(built));
        return Json.ok(body);
    }

    /** The window of ended tasks the filter keeps, in seconds, or null. */
    private static Long withinSeconds(TaskQuery query) {
        return query.finishedWithin() == null ? null : query.finishedWithin().toSeconds();
    }

    /** What a bulk action on the filter would select: the count to confirm and the highest id to pass back. */
    ServerResponse bulkCount(ServerRequest request) {
        TaskQuery filter = TaskFilters.read(name -> Params.text(request, name)).build();
        BulkCount count = errand.admin().countForBulk(filter);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("count", count.count());
        body.put("highestId", count.highestId());
        body.put("withinSeconds", withinSeconds(filter));
        return Json.ok(body);
    }

    /** A bulk action on a filter, limited to the ids the operator confirmed ({@code upToId}). */
    ServerResponse bulk(ServerRequest request) {
        String action = request.pathVariable("action");
        if (!List.of("retry", "cancel", "delete", "reschedule", "priority").contains(action)) {
            throw ApiException.notFound("There is no bulk action '" + Params.cut(action)
                    + "'; use retry, cancel, delete, reschedule or priority");
        }
        JsonNode body = Json.body(request);
        for (String field : body.propertyNames()) {
            if (!BULK_FIELDS.contains(field)) {
                throw ApiException.badRequest("A bulk action's body takes filter, upToId, chunkSize, atMost, runAt"
                        + " and priority, not \"" + Params.cut(field) + "\" (it acts on a filter, never on a list of"
                        + " ids)");
            }
        }
        JsonNode filterNode = body.get("filter");
        if (filterNode == null || !filterNode.isObject()) {
            throw ApiException.badRequest("The body needs \"filter\", an object of the task list's filters ("
                    + String.join(", ", TaskFilters.NAMES) + "); {} for every task");
        }
        for (String field : filterNode.propertyNames()) {
            if (!TaskFilters.NAMES.contains(field)) {
                throw ApiException.badRequest("The filter takes " + String.join(", ", TaskFilters.NAMES) + ", not \""
                        + Params.cut(field) + "\"");
            }
        }
        TaskQuery filter =
                TaskFilters.read(name -> Params.optionalField(filterNode, name)).build();
        Long upToId = optionalLong(body, "upToId");
        if (upToId == null || upToId < 1) {
            throw ApiException.badRequest("The body needs \"upToId\", the highest id counted by"
                    + " GET /api/tasks/bulk-count: a bulk action acts only on the tasks the operator confirmed");
        }
        BulkOptions options = BulkOptions.defaults().upToId(upToId);
        Integer chunkSize = Params.optionalInt(body, "chunkSize");
        if (chunkSize != null) {
            options = options.withChunkSize(chunkSize);
        }
        Long atMost = optionalLong(body, "atMost");
        if (atMost != null) {
            options = options.atMost(atMost);
        }
        // Read every argument before answering: a bad one is a 400 now, never a failed job later.
        Function<BulkOptions, BulkResult> work =
                switch (action) {
                    case "retry" -> bulkOptions -> errand.admin().retryAll(filter, bulkOptions);
                    case "cancel" -> bulkOptions -> errand.admin().cancelAll(filter, bulkOptions);
                    case "delete" -> bulkOptions -> errand.admin().deleteAll(filter, bulkOptions);
                    case "reschedule" -> {
                        Instant runAt = runAt(Params.field(body, "runAt"));
                        yield bulkOptions -> errand.admin().rescheduleAll(filter, runAt, bulkOptions);
                    }
                    default -> {
                        int priority = priority(body);
                        yield bulkOptions -> errand.admin().changePriority(filter, priority, bulkOptions);
                    }
                };
        // The set confirmed: the filter's tasks up to upToId, counted by the job before it acts.
        TaskQuery confirmed = filter.toBuilder()
                .before(upToId == Long.MAX_VALUE ? upToId : upToId + 1)
                .build();
        BulkJob job;
        try {
            job = jobs.start(
                    action,
                    access.user(request.servletRequest()).name(),
                    options,
                    () -> errand.admin().countForBulk(confirmed).count(),
                    work);
        } catch (BulkJobs.BusyException e) {
            throw new ApiException(429, e.getMessage());
        }
        URI location = URI.create(
                request.servletRequest().getRequestURI().replaceFirst("/tasks/bulk/[^/]+$", "/bulk-jobs/" + job.id()));
        return Json.accepted(location, job(job));
    }

    /** The bulk jobs this node remembers, newest first: the running ones and the last ended. */
    ServerResponse bulkJobs(ServerRequest request) {
        List<Object> items = new ArrayList<>();
        jobs.list().forEach(job -> items.add(job(job)));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("items", items);
        body.put("maxRunning", jobs.maxRunning());
        body.put("nodeId", errand.settings().nodeId());
        return Json.ok(body);
    }

    /** One bulk job's progress. */
    ServerResponse bulkJob(ServerRequest request) {
        String id = request.pathVariable("id");
        BulkJob job = jobs.find(id)
                .orElseThrow(() -> ApiException.notFound("There is no bulk job '" + Params.cut(id) + "' on node "
                        + errand.settings().nodeId() + " (a job is remembered on the node that runs it, the last "
                        + BulkJobs.KEPT + " ended ones)"));
        return Json.ok(job(job));
    }

    private Map<String, Object> job(BulkJob job) {
        BulkResult done = job.progress();
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("id", job.id());
        view.put("action", job.action());
        view.put("state", job.state().name().toLowerCase(java.util.Locale.ROOT));
        view.put("startedBy", job.startedBy());
        view.put("startedAt", job.startedAt());
        view.put("endedAt", job.endedAt());
        view.put("nodeId", errand.settings().nodeId());
        view.put("upToId", job.upToId());
        view.put("total", job.total() < 0 ? null : job.total());
        view.put("matched", done.matched());
        view.put("changed", done.changed());
        view.put("skipped", done.skipped());
        view.put("chunks", done.chunks());
        view.put("error", job.error());
        return view;
    }

    ServerResponse priority(ServerRequest request) {
        long id = Params.id(request, "task id");
        int priority = priority(Json.body(request));
        Task task = find(id);
        if (!errand.admin().changePriority(id, priority)) {
            throw refused(task, "given another priority", "pending or waiting");
        }
        return done(id, "priority");
    }

    private static int priority(JsonNode body) {
        Integer priority = Params.optionalInt(body, "priority");
        if (priority == null || priority < 1 || priority > 10) {
            throw ApiException.badRequest(
                    "The body needs \"priority\", a whole number from 1 (runs first) to 10 (runs last)");
        }
        return priority;
    }

    private static Long optionalLong(JsonNode body, String name) {
        JsonNode node = body.get(name);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isIntegralNumber() || !node.canConvertToLong()) {
            throw ApiException.badRequest("The body field \"" + name + "\" must be a whole number");
        }
        return node.asLong();
    }

    private static TaskOrder order(String text) {
        if (text == null || text.equals("asc")) {
            return TaskOrder.ID_ASCENDING;
        }
        if (text.equals("desc")) {
            return TaskOrder.ID_DESCENDING;
        }
        throw ApiException.badRequest(
                "order must be asc (oldest first) or desc (newest first), got '" + Params.cut(text) + "'");
    }

    private static Instant runAt(String text) {
        Instant runAt = Params.instant(text, "runAt");
        if (runAt.isBefore(TaskRequest.EARLIEST_RUN_AT) || runAt.isAfter(TaskRequest.LATEST_RUN_AT)) {
            throw ApiException.badRequest("runAt must be between " + TaskRequest.EARLIEST_RUN_AT + " and "
                    + TaskRequest.LATEST_RUN_AT + ", got " + runAt);
        }
        return runAt;
    }

    ServerResponse one(ServerRequest request) {
        long id = Params.id(request, "task id");
        Task task = find(id);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("task", Views.task(task));
        body.put("chain", errand.admin().chain(id));
        body.put("progress", errand.admin().progress(id).map(Views::progress).orElse(null));
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
        Instant runAt = runAt(Params.field(Json.body(request), "runAt"));
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
                actions.add("priority");
            }
            case WAITING -> {
                actions.add("cancel");
                actions.add("priority");
            }
            case RUNNING -> actions.add("request-cancel");
            default -> {}
        }
        actions.add("delete");
        return actions;
    }
}
