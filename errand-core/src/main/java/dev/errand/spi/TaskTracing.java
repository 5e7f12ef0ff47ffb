package dev.errand.spi;

/**
 * Links a task's attempts to the trace that enqueued it. Errand stores what {@link #capture} returns on the task's
 * row and hands it back to {@link #attemptStarted} on the node that runs the task, so that a tracing library can
 * start the attempt's span as a child of the enqueuing span. The core knows no tracing library: the Spring Boot
 * starter implements this over Micrometer's Observation API, which works with Micrometer Tracing over
 * OpenTelemetry or Brave alike.
 *
 * <p>Two set-based steps are observed too, each as a span of its own with no parent: a node's claim of a batch of
 * tasks ({@link #claimStarted}) and the batched completion of non-transactional successes
 * ({@link #completionStarted}). Both default to nothing.
 *
 * <p>Every method runs on Errand's hot paths (every enqueue, attempt, claim and completion batch) and must be
 * quick. An exception from any of them is logged and otherwise ignored: tracing never fails an enqueue, an attempt,
 * a claim or a completion.
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

    /**
     * Opens the span of one claim by this node's poller of {@code queue}, on the poller's thread, before the claiming
     * statement; Errand reports the tasks it took (zero for an empty poll) or its failure, then closes it. The
     * default observes nothing.
     */
    default BatchSpan claimStarted(String queue) {
        return BatchSpan.NONE;
    }

    /**
     * Opens the span of one batched completion: {@code tasks} non-transactional successes, of any queue, written in
     * one transaction on the node's completer thread. Errand reports how many it completed (fewer when some lost
     * their lease) or its failure, then closes it. The default observes nothing.
     */
    default BatchSpan completionStarted(int tasks) {
        return BatchSpan.NONE;
    }

    /** The span of one set-based step over many tasks: a claim or a batched completion. */
    interface BatchSpan extends AutoCloseable {

        /** A span that does nothing. */
        BatchSpan NONE = new BatchSpan() {
            @Override
            public void tasks(int count) {}

            @Override
            public void failed(Throwable error) {}

            @Override
            public void close() {}
        };

        /** The step succeeded over {@code count} tasks (claimed or completed); called once, before {@link #close}. */
        void tasks(int count);

        /** The step failed with {@code error} and will be tried again; called once, before {@link #close}. */
        void failed(Throwable error);

        /** Ends the span; called once. */
        @Override
        void close();
    }

    /** The span of one attempt, open while the attempt runs. */
    interface AttemptSpan extends AutoCloseable {

        /** A span that does nothing. */
        AttemptSpan NONE = () -> {};

        /** Ends the span; called once. */
        @Override
        void close();
    }
}
