package dev.errand.internal.store;

import dev.errand.spi.TraceContext;
import java.time.Instant;

/**
 * A task row about to be inserted, with every default already resolved.
 *
 * @param kind the kind
 * @param queue the queue
 * @param payloadJson the JSON payload, or {@code null}
 * @param placement when and how often it runs, and its unique key
 * @param envelope what travels with it besides its payload: its conditions, its pin and its trace context
 */
public record NewTask(String kind, String queue, String payloadJson, Placement placement, Envelope envelope) {

    /**
     * What travels with a task besides its payload.
     *
     * @param gate its conditions and deadline; {@link TaskGate#NONE} for a task that runs when due
     * @param pin the node or node group it is pinned to; {@link Pin#NONE} for any node
     * @param trace the trace context of the code that enqueued it; {@link TraceContext#NONE} for none
     * @param limitKey its flow-control key, or {@code null}
     */
    public record Envelope(TaskGate gate, Pin pin, TraceContext trace, String limitKey) {
        /** Without a flow-control key. */
        public Envelope(TaskGate gate, Pin pin, TraceContext trace) {
            this(gate, pin, trace, null);
        }
    }

    /**
     * Where a task may run.
     *
     * @param node the node id it is pinned to, or {@code null}
     * @param group the node group it is pinned to, or {@code null}
     */
    public record Pin(String node, String group) {
        /** Not pinned: any node may run it. */
        public static final Pin NONE = new Pin(null, null);

        /** Whether the task is pinned to a node or a group. */
        public boolean pinned() {
            return node != null || group != null;
        }
    }

    /** A task pinned as {@code pin}, without a trace context. */
    public NewTask(String kind, String queue, String payloadJson, Placement placement, TaskGate gate, Pin pin) {
        this(kind, queue, payloadJson, placement, new Envelope(gate, pin, TraceContext.NONE));
    }

    /** A task that any node may run, without a trace context. */
    public NewTask(String kind, String queue, String payloadJson, Placement placement, TaskGate gate) {
        this(kind, queue, payloadJson, placement, gate, Pin.NONE);
    }

    /** This task carrying {@code trace}. */
    public NewTask withTrace(TraceContext trace) {
        return new NewTask(
                kind,
                queue,
                payloadJson,
                placement,
                new Envelope(envelope.gate(), envelope.pin(), trace, envelope.limitKey()));
    }

    /** This task with the flow-control key {@code limitKey} (null for none). */
    public NewTask withLimitKey(String limitKey) {
        return new NewTask(
                kind,
                queue,
                payloadJson,
                placement,
                new Envelope(envelope.gate(), envelope.pin(), envelope.trace(), limitKey));
    }

    /** Its flow-control key, or {@code null}. */
    public String limitKey() {
        return envelope.limitKey();
    }

    /** Its conditions and deadline. */
    public TaskGate gate() {
        return envelope.gate();
    }

    /** The node or node group it is pinned to. */
    public Pin pin() {
        return envelope.pin();
    }

    /** The trace context it carries. */
    public TraceContext trace() {
        return envelope.trace();
    }

    /**
     * When and how often a new task runs.
     *
     * @param priority 1 to 10
     * @param runAt an explicit run time, or {@code null} to run at database time plus {@code delayMicros}
     * @param delayMicros microseconds after the database's current time (includes a test clock's offset)
     * @param maxAttempts the most attempts
     * @param uniqueKey the unique key, or {@code null}
     */
    public record Placement(int priority, Instant runAt, long delayMicros, int maxAttempts, String uniqueKey) {}

    /** 1 to 10. */
    public int priority() {
        return placement.priority();
    }

    /** The explicit run time, or {@code null}. */
    public Instant runAt() {
        return placement.runAt();
    }

    /** Microseconds after the database's current time, when there is no explicit run time. */
    public long delayMicros() {
        return placement.delayMicros();
    }

    /** The most attempts. */
    public int maxAttempts() {
        return placement.maxAttempts();
    }

    /** The unique key, or {@code null}. */
    public String uniqueKey() {
        return placement.uniqueKey();
    }

    /** Whether the row can go in a plain batch insert: no unique key, no conditions, no deadline. */
    public boolean plain() {
        // The batch statements have no limit_key column: a task with a key goes in one at a time.
        return placement.uniqueKey() == null && gate().isNone() && envelope.limitKey() == null;
    }
}
