package dev.errand.internal.engine;

import dev.errand.spi.ClaimedTask;
import org.slf4j.MDC;

/**
 * The task an attempt runs, in the SLF4J MDC of the worker thread for as long as the attempt runs, so that every
 * log line written meanwhile (the handler's, Errand's) names it: {@value #TASK_ID}, {@value #KIND},
 * {@value #ATTEMPT}, and {@value #TRACE_ID} when the task carries the trace context of its enqueue. Closing puts back what the thread had before, so nothing of the task stays on the worker.
 */
final class TaskLogContext implements AutoCloseable {

    /** The MDC key of the task's id. */
    static final String TASK_ID = "errand.task.id";

    /** The MDC key of the task's kind. */
    static final String KIND = "errand.task.kind";

    /** The MDC key of the attempt's number, 1 for the first. */
    static final String ATTEMPT = "errand.task.attempt";

    /** The MDC key of the id of the trace that enqueued the task (32 hex digits), when it carries one. */
    static final String TRACE_ID = "errand.trace.id";

    private final String previousId;
    private final String previousKind;
    private final String previousAttempt;
    private final String previousTrace;

    private TaskLogContext() {
        previousId = MDC.get(TASK_ID);
        previousKind = MDC.get(KIND);
        previousAttempt = MDC.get(ATTEMPT);
        previousTrace = MDC.get(TRACE_ID);
    }

    /** Puts {@code task} in the MDC until {@link #close()}. */
    static TaskLogContext enter(ClaimedTask task) {
        TaskLogContext context = new TaskLogContext();
        MDC.put(TASK_ID, Long.toString(task.id()));
        MDC.put(KIND, task.kind());
        MDC.put(ATTEMPT, Integer.toString(task.attempt()));
        if (task.trace().isPresent()) {
            MDC.put(TRACE_ID, task.trace().traceId());
        } else {
            MDC.remove(TRACE_ID);
        }
        return context;
    }

    @Override
    public void close() {
        restore(TASK_ID, previousId);
        restore(KIND, previousKind);
        restore(ATTEMPT, previousAttempt);
        restore(TRACE_ID, previousTrace);
    }

    private static void restore(String key, String previous) {
        if (previous == null) {
            MDC.remove(key);
        } else {
            MDC.put(key, previous);
        }
    }
}
