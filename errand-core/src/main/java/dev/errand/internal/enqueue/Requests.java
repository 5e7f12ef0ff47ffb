package dev.errand.internal.enqueue;

import dev.errand.config.ErrandSettings;
import dev.errand.enqueue.TaskRequest;
import dev.errand.event.Condition;
import dev.errand.internal.flow.PayloadKeys;
import dev.errand.internal.store.Micros;
import dev.errand.internal.store.NewTask;
import dev.errand.internal.store.TaskGate;
import dev.errand.node.KindControl;
import dev.errand.spi.PayloadCodec;
import dev.errand.spi.TaskTracing;
import dev.errand.spi.TraceContext;
import dev.errand.task.TaskDefinition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a request into the row to insert, resolving its defaults on this node and refusing what would
 * fail later: an undeclared queue, a payload of the wrong type for a kind this node registered, and a
 * payload that no supported database can store.
 */
public final class Requests {

    private static final Logger log = LoggerFactory.getLogger(Requests.class);

    private final ErrandSettings settings;
    private final Map<String, TaskDefinition<?>> definitions;
    private final PayloadCodec codec;
    private final String channel;
    private final TaskTracing tracing;
    private final KindOverrides overrides;

    /**
     * Creates the resolver for a node's settings, kinds and codec.
     *
     * @param tracing gives each request the trace context of the thread that enqueues it
     * @param overrides the kinds' run-time overrides, whose maximum attempts take the place of the definitions'
     */
    public Requests(
            ErrandSettings settings,
            Map<String, TaskDefinition<?>> definitions,
            PayloadCodec codec,
            TaskTracing tracing,
            KindOverrides overrides) {
        this.settings = settings;
        this.definitions = Map.copyOf(definitions);
        this.codec = codec;
        this.tracing = tracing;
        this.overrides = overrides;
        this.channel = Enqueuer.notificationChannel(settings);
    }

    /** The PostgreSQL channel that wake-ups are sent on. */
    String channel() {
        return channel;
    }

    /**
     * Resolves a request. Its delay and timeouts count from now on the node's clock, whose offset is read here.
     *
     * @throws IllegalArgumentException for a null request, an undeclared queue, a payload of the wrong type
     *     or one that cannot be stored
     */
    public NewTask resolve(TaskRequest request) {
        if (request == null) {
            throw new IllegalArgumentException(
                    "request must not be null: build one with TaskRequest.of(kind, payload)");
        }
        long offsetMicros = Micros.of(settings.clock().offset());
        String queue = request.queue() == null ? ErrandSettings.DEFAULT_QUEUE : request.queue();
        if (!settings.queues().containsKey(queue)) {
            throw new IllegalArgumentException("Queue '" + queue + "' is not configured; declare it with"
                    + " Errand.builder(dataSource).queue(\"" + queue + "\", concurrency). Configured queues: "
                    + settings.queues().keySet());
        }
        TaskDefinition<?> definition = definitions.get(request.kind());
        requirePayloadType(request, definition);
        KindControl override = overrides.of(request.kind());
        int maxAttempts = request.maxAttempts() != null
                ? request.maxAttempts()
                : override != null && override.maxAttempts() != null
                        ? override.maxAttempts()
                        : definition != null && definition.maxAttempts() != null
                                ? definition.maxAttempts()
                                : settings.defaultMaxAttempts();
        String payload = encode(request);
        NewTask task = new NewTask(
                request.kind(),
                queue,
                payload,
                new NewTask.Placement(
                        request.priority(),
                        request.runAt(),
                        Enqueuer.delayMicros(offsetMicros, request),
                        maxAttempts,
                        request.uniqueKey()),
                gate(request, offsetMicros),
                new NewTask.Pin(request.node(), request.nodeGroup()));
        if (request.limitKey() != null) {
            task = task.withLimitKey(request.limitKey());
        } else if (definition != null && definition.limitKeyFrom() != null) {
            task = task.withLimitKey(PayloadKeys.keyOf(request.kind(), definition.limitKeyFrom(), payload));
        }
        return tracing == TaskTracing.NONE ? task : task.withTrace(trace(request.kind(), queue));
    }

    /** The enqueuing thread's trace context; tracing that fails costs the task its trace, never its enqueue. */
    private TraceContext trace(String kind, String queue) {
        try {
            TraceContext trace = tracing.capture(kind, queue);
            return trace == null ? TraceContext.NONE : trace;
        } catch (RuntimeException e) {
            log.warn(
                    "Tracing could not capture the trace context of a task of kind '{}'; it is enqueued without one",
                    kind,
                    e);
            return TraceContext.NONE;
        }
    }

    private static TaskGate gate(TaskRequest request, long offsetMicros) {
        if (request.conditions().isEmpty() && request.expiresAt() == null && request.expiresIn() == null) {
            return TaskGate.NONE;
        }
        List<TaskGate.NewCondition> conditions =
                new ArrayList<>(request.conditions().size());
        for (Condition condition : request.conditions()) {
            conditions.add(new TaskGate.NewCondition(
                    condition.event(),
                    condition.deadline().orElse(null),
                    condition
                            .timeout()
                            .map(timeout -> afterNow(offsetMicros, timeout))
                            .orElse(null)));
        }
        Long expiresIn = request.expiresIn() == null ? null : afterNow(offsetMicros, request.expiresIn());
        return new TaskGate(conditions, request.expiresAt(), expiresIn);
    }

    private static long afterNow(long offsetMicros, Duration timeout) {
        return Micros.plus(offsetMicros, Micros.of(timeout));
    }

    private static void requirePayloadType(TaskRequest request, TaskDefinition<?> definition) {
        Class<?> expected = definition != null ? definition.payloadType() : request.payloadType();
        Object payload = request.payload();
        if (expected == null || payload == null) {
            return;
        }
        if (expected == Void.class) {
            throw new IllegalArgumentException("Kind '" + request.kind() + "' takes no payload, but the request"
                    + " carries a " + payload.getClass().getName() + "; enqueue it with a null payload");
        }
        if (!expected.isInstance(payload)) {
            throw new IllegalArgumentException("Kind '" + request.kind() + "' takes a payload of type "
                    + expected.getName() + ", but the request carries a "
                    + payload.getClass().getName()
                    + "; enqueue a " + expected.getSimpleName() + ", or use TaskRequest.of(TaskKind, payload) to have"
                    + " the compiler check it");
        }
    }

    private String encode(TaskRequest request) {
        String json = codec.encode(request.payload());
        // JSON escapes NUL as \u0000, which PostgreSQL's jsonb refuses; refuse it on every database alike.
        if (json != null && json.contains("\\u0000")) {
            throw new IllegalArgumentException("The payload of kind '" + request.kind() + "' contains a NUL"
                    + " character (U+0000) in a string, which PostgreSQL cannot store; Errand refuses it on every"
                    + " database. Remove it, or encode the value (for example as Base64)");
        }
        return json;
    }
}
