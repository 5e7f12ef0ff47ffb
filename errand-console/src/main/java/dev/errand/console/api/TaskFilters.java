package dev.errand.console.api;

import dev.errand.admin.TaskQuery;
import dev.errand.task.TaskState;
import java.time.Duration;
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
            "finishedBefore",
            "within");

    /**
     * The window of an error-text search without a time range, over ended tasks only: no index serves a substring,
     * and the index on state and finish time keeps the scan to the newest ended tasks.
     */
    static final Duration ERROR_SEARCH_WINDOW = Duration.ofHours(1);

    /** The states of an ended task, which the window can apply to. */
    private static final Set<TaskState> ENDED = EnumSet.of(TaskState.SUCCEEDED, TaskState.FAILED, TaskState.CANCELLED);

    private TaskFilters() {}

    /**
     * A query builder with the filters that {@code value} gives (null or empty: not set). {@code within} (an ISO-8601
     * duration, or {@code all}) keeps tasks that ended that recently; unset, a search of error text without a time
     * range whose states are all ended ones (or unset) looks at the last {@link #ERROR_SEARCH_WINDOW}.
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
        String within = value.apply("within");
        Duration window = within != null ? Params.window(within) : defaultWindow(query.build());
        if (window != null) {
            query.finishedWithin(window);
        }
        return query;
    }

    private static Duration defaultWindow(TaskQuery query) {
        boolean ranged = query.created() != null || query.runAt() != null || query.finished() != null;
        boolean endedOnly = query.states().isEmpty() || ENDED.containsAll(query.states());
        return query.errorContains() != null && !ranged && endedOnly ? ERROR_SEARCH_WINDOW : null;
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
