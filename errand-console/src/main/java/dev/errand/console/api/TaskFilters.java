package dev.errand.console.api;

import dev.errand.admin.TaskQuery;
import dev.errand.task.TaskState;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The task filter of the Tasks page, read the same way from the query string of {@code GET /api/tasks} and from
 * the {@code filter} object of a bulk action's body. Every value is text; a bad one is a 400 that says what is
 * accepted, and SQL metacharacters are plain characters (the core binds every value).
 */
final class TaskFilters {

    /** The filter's parameter names. */
    static final List<String> NAMES = List.of(
            "state",
            "kind",
            "queue",
            "node",
            "error",
            "createdFrom",
            "createdBefore",
            "runAtFrom",
            "runAtBefore",
            "finishedFrom",
            "finishedBefore");

    private TaskFilters() {}

    /**
     * A query builder with the filters that {@code value} gives (null or empty: not set).
     *
     * @param value reads one parameter by name
     */
    static TaskQuery.Builder read(Function<String, String> value) {
        TaskQuery.Builder query = TaskQuery.builder();
        String states = value.apply("state");
        if (states != null) {
            query.states(states(states));
        }
        String kind = value.apply("kind");
        if (kind != null) {
            query.kind(kind);
        }
        String queue = value.apply("queue");
        if (queue != null) {
            query.queue(queue);
        }
        String node = value.apply("node");
        if (node != null) {
            query.leaseOwner(node);
        }
        String error = value.apply("error");
        if (error != null) {
            query.errorContains(error);
        }
        Instant createdFrom = instant(value, "createdFrom");
        Instant createdBefore = instant(value, "createdBefore");
        if (createdFrom != null || createdBefore != null) {
            query.createdBetween(createdFrom, createdBefore);
        }
        Instant runAtFrom = instant(value, "runAtFrom");
        Instant runAtBefore = instant(value, "runAtBefore");
        if (runAtFrom != null || runAtBefore != null) {
            query.runAtBetween(runAtFrom, runAtBefore);
        }
        Instant finishedFrom = instant(value, "finishedFrom");
        Instant finishedBefore = instant(value, "finishedBefore");
        if (finishedFrom != null || finishedBefore != null) {
            query.finishedBetween(finishedFrom, finishedBefore);
        }
        return query;
    }

    /** One state or several, separated by commas: {@code failed,cancelled}. */
    private static Set<TaskState> states(String text) {
        Set<TaskState> states = EnumSet.noneOf(TaskState.class);
        for (String one : text.split(",", -1)) {
            states.add(Params.enumeration(one, "state", TaskState.class));
        }
        return states;
    }

    private static Instant instant(Function<String, String> value, String name) {
        String text = value.apply(name);
        return text == null ? null : Params.instant(text, name);
    }
}
