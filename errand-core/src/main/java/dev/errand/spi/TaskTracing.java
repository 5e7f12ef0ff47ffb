package dev.errand.spi;

/**
 * Links a task's attempts to the trace that enqueued it. Errand stores what {@link #capture} returns on the task's
 * row and hands it back to {@link #attemptStarted} on the node that runs the task, so that a tracing library can
 * start the attempt's span as a child of the enqueuing span. The core knows no tracing library: the Spring Boot
 * starter implements this over Micrometer's Observation API, which works with Micrometer Tracing over
 * OpenTelemetry or Brave alike.
 *
 * <p>Both methods run on Errand's hot paths (every enqueue, every attempt) and must be quick. An exception from
 * either is logged and otherwise ignored: tracing never fails an enqueue or an attempt.
 */
public interface TaskTracing {

    /** No tracing: nothing is stored and attempts are not wrapped. The default. */
    TaskTracing NONE = new TaskTracing() {
        @Override
        public TraceContext capture(String kind, String queue) {
            return TraceContext.NONE;
        }

        @Override
        public AttemptSpan attemptStarted(ClaimedTask task) {
            return AttemptSpan.NONE;
        }
    };

    /**
     * The trace context to store on a task being enqueued, called on the enqueuing thread (the caller's, or a
     * worker's for a continuation), before the insert; {@link TraceContext#NONE} when no trace is active.
     */
    TraceContext capture(String kind, String queue);

    /**
     * Opens the span of an attempt about to run its handler, on the worker thread that runs it; its parent is
     * {@code task.trace()}. Errand closes it on the same thread when the attempt has ended: after the commit of a
     * transactional attempt, after the handler of another one (its success is then written in a batch).
     */
    AttemptSpan attemptStarted(ClaimedTask task);

    /** The span of one attempt, open while the attempt runs. */
    interface AttemptSpan extends AutoCloseable {

        /** A span that does nothing. */
        AttemptSpan NONE = () -> {};

        /** Ends the span; called once. */
        @Override
        void close();
    }
}
