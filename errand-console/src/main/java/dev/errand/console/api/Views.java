package dev.errand.console.api;

import dev.errand.history.Attempt;
import dev.errand.node.NodeInfo;
import dev.errand.task.Task;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** The JSON shapes of the core's records, with states and outcomes in the lower case the schema stores. */
final class Views {

    /** The most characters of a last error a task list shows; the task's page has all of it. */
    static final int LIST_ERROR_LENGTH = 300;

    private Views() {}

    static Map<String, Object> taskSummary(Task task) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("id", task.id());
        view.put("kind", task.kind());
        view.put("queue", task.queue());
        view.put("state", task.state().dbValue());
        view.put("priority", task.priority());
        view.put("runAt", task.runAt());
        view.put("attempt", task.attempt());
        view.put("maxAttempts", task.maxAttempts());
        view.put("createdAt", task.createdAt());
        view.put("finishedAt", task.finishedAt());
        view.put("leaseOwner", task.leaseOwner());
        String error = task.lastError();
        view.put(
                "lastError",
                error == null || error.length() <= LIST_ERROR_LENGTH
                        ? error
                        : error.substring(0, LIST_ERROR_LENGTH) + "…");
        return view;
    }

    static Map<String, Object> task(Task task) {
        Map<String, Object> view = new LinkedHashMap<>(taskSummary(task));
        view.put("lastError", task.lastError());
        view.put("startedAt", task.startedAt());
        view.put("leaseExpiresAt", task.leaseExpiresAt());
        view.put("uniqueKey", task.uniqueKey());
        view.put("payload", Json.parseStored(task.payloadJson()));
        view.put("errors", Json.parseStored(task.errorsJson()));
        return view;
    }

    /** A running task's reported progress. */
    static Map<String, Object> progress(dev.errand.task.TaskProgress progress) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("done", progress.done());
        view.put("total", progress.total());
        view.put("message", progress.message());
        view.put("attempt", progress.attempt());
        view.put("updatedAt", progress.updatedAt());
        return view;
    }

    static Map<String, Object> attempt(Attempt attempt) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("id", attempt.id());
        view.put("taskId", attempt.taskId());
        view.put("kind", attempt.kind());
        view.put("queue", attempt.queue());
        view.put("attempt", attempt.attempt());
        view.put("node", attempt.node());
        view.put("startedAt", attempt.startedAt());
        view.put("finishedAt", attempt.finishedAt());
        view.put(
                "durationMillis",
                attempt.duration() == null ? null : attempt.duration().toMillis());
        view.put("outcome", attempt.outcome().dbValue());
        view.put("error", attempt.error());
        view.put("logs", attempt.logs());
        return view;
    }

    static Map<String, Object> node(NodeInfo node, Instant databaseTime) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("nodeId", node.nodeId());
        view.put("groups", node.groups());
        view.put("state", node.state().name().toLowerCase(java.util.Locale.ROOT));
        view.put("alive", node.alive());
        view.put("processing", node.processing());
        view.put("exclusive", node.exclusive());
        view.put("leader", node.leader());
        view.put("startedAt", node.times().startedAt());
        view.put("heartbeatAt", node.times().heartbeatAt());
        view.put("stoppedAt", node.times().stoppedAt());
        view.put("heartbeatAgeSeconds", seconds(node.times().heartbeatAt(), databaseTime));
        view.put("runningTasks", node.runningTasks());
        view.put("host", node.process().host());
        view.put("pid", node.process().pid());
        view.put("version", node.process().version());
        return view;
    }

    static Double seconds(Duration duration) {
        return duration == null ? null : duration.toMillis() / 1000.0;
    }

    private static Double seconds(Instant from, Instant to) {
        return from == null || to == null
                ? null
                : Math.max(0, Duration.between(from, to).toMillis()) / 1000.0;
    }
}
