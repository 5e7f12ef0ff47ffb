package dev.errand.spring.tracing;

import dev.errand.spi.ClaimedTask;
import dev.errand.spi.TaskListener;
import dev.errand.spi.TaskTracing;
import dev.errand.spi.TraceContext;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Errand's {@link TaskTracing} over Micrometer's Observation API. At enqueue it starts and stops an
 * {@value #ENQUEUE} observation (a producer) whose tracing handler writes the W3C {@code traceparent} and
 * {@code tracestate} into a carrier, which Errand stores on the task. When an attempt starts it opens an
 * {@value #RUN} observation (a consumer) whose tracing handler reads that carrier, so the attempt's span is a
 * <em>child</em> of the enqueue span, in the same trace. A child, not a link: one task run answers one enqueue,
 * as a message consumer answers its producer, and a child keeps the request and its task in one trace view.
 *
 * <p>The run observation is current on the worker thread while the handler runs, so spans the handler starts,
 * and the tasks it enqueues (continuations), are its children. It carries {@code errand.kind}, {@code errand.queue}
 * and {@code errand.outcome} (succeeded, retried, failed, or ended for a cancel, snooze or lost lease) as
 * low-cardinality values, usable as timer tags, and {@code errand.task.id} and {@code errand.attempt} as
 * high-cardinality ones, on the span only. The outcome comes from Errand's {@link TaskListener} events, which the
 * engine sends on the attempt's thread while the observation is current.
 *
 * <p>Two set-based steps are observed as well, each with no parent: {@value #CLAIM}, one claim of a batch of tasks
 * by a node's poller of a queue ({@code errand.queue}; {@code errand.outcome} claimed, empty or failed; the number
 * taken as {@code errand.tasks}, high-cardinality), and {@value #COMPLETE}, one batched completion of
 * non-transactional successes ({@code errand.outcome} completed or failed; {@code errand.tasks}). As timers they
 * show claim and completion latency; as spans, an empty poll is a span too, so an application that traces everything
 * may turn the claim off with {@code management.observations.enable.errand.task.claim=false}.
 *
 * <p>Without a tracing handler in the registry the carrier stays empty and nothing is stored.
 */
public final class TaskObservations implements TaskTracing, TaskListener {

    /** The name of the observation of an enqueue. */
    public static final String ENQUEUE = "errand.task.enqueue";

    /** The name of the observation of an attempt. */
    public static final String RUN = "errand.task.run";

    /** The name of the observation of one claim by a node's poller. */
    public static final String CLAIM = "errand.task.claim";

    /** The name of the observation of one batched completion of non-transactional successes. */
    public static final String COMPLETE = "errand.task.complete";

    private final ObservationRegistry registry;

    /** Observes enqueues and attempts in {@code registry}. */
    public TaskObservations(ObservationRegistry registry) {
        if (registry == null) {
            throw new IllegalArgumentException("registry must not be null; pass ObservationRegistry.NOOP for none");
        }
        this.registry = registry;
    }

    @Override
    public TraceContext capture(String kind, String queue) {
        if (registry.isNoop()) {
            return TraceContext.NONE;
        }
        EnqueueContext context = new EnqueueContext();
        Observation.createNotStarted(ENQUEUE, () -> context, registry)
                .contextualName("errand enqueue " + kind)
                .lowCardinalityKeyValue("errand.kind", kind)
                .lowCardinalityKeyValue("errand.queue", queue)
                .start()
                .stop();
        return TraceContext.of(
                context.getCarrier().get("traceparent"), context.getCarrier().get("tracestate"));
    }

    @Override
    public AttemptSpan attemptStarted(ClaimedTask task) {
        if (registry.isNoop()) {
            return AttemptSpan.NONE;
        }
        RunContext context = new RunContext(task.trace());
        Observation observation = Observation.createNotStarted(RUN, () -> context, registry)
                .contextualName("errand run " + task.kind())
                .lowCardinalityKeyValue("errand.kind", task.kind())
                .lowCardinalityKeyValue("errand.queue", task.queue())
                .lowCardinalityKeyValue("errand.outcome", "ended")
                .highCardinalityKeyValue("errand.task.id", Long.toString(task.id()))
                .highCardinalityKeyValue("errand.attempt", Integer.toString(task.attempt()))
                .start();
        Observation.Scope scope = observation.openScope();
        return () -> {
            scope.close();
            observation.stop();
        };
    }

    @Override
    public BatchSpan claimStarted(String queue) {
        if (registry.isNoop()) {
            return BatchSpan.NONE;
        }
        Observation observation = Observation.createNotStarted(CLAIM, registry)
                .contextualName("errand claim " + queue)
                .lowCardinalityKeyValue("errand.queue", queue)
                .start();
        return new ObservedBatch(observation, count -> count == 0 ? "empty" : "claimed");
    }

    @Override
    public BatchSpan completionStarted(int tasks) {
        if (registry.isNoop()) {
            return BatchSpan.NONE;
        }
        Observation observation = Observation.createNotStarted(COMPLETE, registry)
                .contextualName("errand complete")
                .start();
        return new ObservedBatch(observation, count -> "completed");
    }

    @Override
    public void succeeded(String kind, String queue, Duration duration) {
        outcome("succeeded");
    }

    @Override
    public void retried(String kind, String queue, int attempt) {
        outcome("retried");
    }

    @Override
    public void failed(String kind, String queue, int attempt) {
        outcome("failed");
    }

    /** Sets the outcome of the attempt observed on this thread, if one is. */
    private void outcome(String outcome) {
        Observation current = registry.getCurrentObservation();
        if (current != null && current.getContext() instanceof RunContext) {
            current.lowCardinalityKeyValue("errand.outcome", outcome);
        }
    }

    /** A claim or a completion batch: its outcome and task count, set before it stops. */
    private static final class ObservedBatch implements BatchSpan {
        private final Observation observation;
        private final IntFunction<String> outcome;

        ObservedBatch(Observation observation, IntFunction<String> outcome) {
            this.observation = observation;
            this.outcome = outcome;
            observation.lowCardinalityKeyValue("errand.outcome", "failed");
        }

        @Override
        public void tasks(int count) {
            observation
                    .lowCardinalityKeyValue("errand.outcome", outcome.apply(count))
                    .highCardinalityKeyValue("errand.tasks", Integer.toString(count));
        }

        @Override
        public void failed(Throwable error) {
            observation.lowCardinalityKeyValue("errand.outcome", "failed").error(error);
        }

        @Override
        public void close() {
            observation.stop();
        }
    }

    /** An enqueue: a producer whose carrier receives the trace context. */
    static final class EnqueueContext extends io.micrometer.observation.transport.SenderContext<Map<String, String>> {
        EnqueueContext() {
            super(Map::put, io.micrometer.observation.transport.Kind.PRODUCER);
            setCarrier(new HashMap<>(4));
            setRemoteServiceName("errand");
        }
    }

    /** An attempt: a consumer whose carrier holds the trace context stored at enqueue. */
    static final class RunContext extends io.micrometer.observation.transport.ReceiverContext<Map<String, String>> {
        RunContext(TraceContext trace) {
            super(Map::get, io.micrometer.observation.transport.Kind.CONSUMER);
            Map<String, String> carrier = new HashMap<>(4);
            if (trace.isPresent()) {
                carrier.put("traceparent", trace.traceparent());
                if (trace.tracestate() != null) {
                    carrier.put("tracestate", trace.tracestate());
                }
            }
            setCarrier(carrier);
            setRemoteServiceName("errand");
        }
    }
}
