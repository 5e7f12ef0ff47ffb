package dev.errand.enqueue;

import dev.errand.event.Condition;
import dev.errand.task.EnqueueOptions;
import dev.errand.task.TaskKind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * A task to enqueue: its kind, payload and options. Create one with {@link #of(TaskKind, Object)} or,
 * for options, {@link #builder(TaskKind, Object)}; the forms that take a kind name serve tasks whose
 * handler lives elsewhere. Unset options take defaults: run now, priority 5, queue {@code default}, the
 * kind's maximum attempts, no unique key, no conditions, no deadline.
 *
 * <p>A request with {@linkplain Builder#condition(Condition) conditions} enqueues a {@code waiting} task that
 * runs only once every condition's event has been triggered. A request with a deadline
 * ({@link Builder#expiresAt(Instant)}, {@link Builder#expiresIn(Duration)}) fails as expired if it has not
 * run by then.
 */
public final class TaskRequest {

    /** Longest unique key the schema stores. */
    public static final int MAX_UNIQUE_KEY_LENGTH = EnqueueOptions.MAX_UNIQUE_KEY_LENGTH;
    /** The longest flow-control key: the length of the {@code limit_key} column. */
    public static final int MAX_LIMIT_KEY_LENGTH = 200;
    /** The earliest run time accepted (MariaDB's {@code DATETIME} starts here). */
    public static final Instant EARLIEST_RUN_AT = EnqueueOptions.EARLIEST_RUN_AT;
    /** The latest run time accepted (MariaDB's {@code DATETIME} ends here). */
    public static final Instant LATEST_RUN_AT = EnqueueOptions.LATEST_RUN_AT;

    private final String kind;
    private final Class<?> payloadType;
    private final Object payload;
    private final EnqueueOptions options;
    private final List<Condition> conditions;
    private final String limitKey;

    private TaskRequest(Builder builder, EnqueueOptions options) {
        this.kind = builder.kind;
        this.payloadType = builder.payloadType;
        this.payload = builder.payload;
        this.options = options;
        this.conditions = List.copyOf(builder.conditions);
        this.limitKey = builder.limitKey;
    }

    /**
     * The flow-control key of the task, or null: tasks of one key share their kind's per-key concurrency limit.
     * See {@link Builder#limitKey(String)}.
     */
    public String limitKey() {
        return limitKey;
    }

    /**
     * A request for a task of {@code kind} with default options.
     *
     * @throws IllegalArgumentException if the kind is null
     */
    public static <P> TaskRequest of(TaskKind<P> kind, P payload) {
        return builder(kind, payload).build();
    }

    /**
     * Starts a request for a task of {@code kind}, with options.
     *
     * @throws IllegalArgumentException if the kind is null
     */
    public static <P> Builder builder(TaskKind<P> kind, P payload) {
        if (kind == null) {
            throw new IllegalArgumentException("kind must not be null: declare it with TaskKind.of(name, Type.class)");
        }
        return new Builder(kind.name(), kind.payloadType(), payload);
    }

    /**
     * A request by kind name, for a kind this code has no {@link TaskKind} of. If the enqueuing node
     * registered the kind, the payload must still be of its payload type.
     *
     * @throws IllegalArgumentException if the kind is not a valid name
     */
    public static TaskRequest of(String kind, Object payload) {
        return builder(kind, payload).build();
    }

    /**
     * Starts a request by kind name, with options.
     *
     * @throws IllegalArgumentException if the kind is not a valid name
     */
    public static Builder builder(String kind, Object payload) {
        return new Builder(kind, null, payload);
    }

    /**
     * Checks a run time.
     *
     * @return the run time
     * @throws IllegalArgumentException if it is null, or outside the years 1000 to 9999 that every
     *     supported database stores
     */
    public static Instant requireRunAt(Instant instant) {
        return EnqueueOptions.requireRunAt(instant);
    }

    /** The kind name. */
    public String kind() {
        return kind;
    }

    /** The payload type the request was typed with, or {@code null} for a request by kind name. */
    public Class<?> payloadType() {
        return payloadType;
    }

    /** The payload object, or {@code null}. */
    public Object payload() {
        return payload;
    }

    /** The options shared with continuations: run time, priority, queue, attempts, pinning, key, deadline. */
    public EnqueueOptions options() {
        return options;
    }

    /** The explicit run time, or {@code null}. */
    public Instant runAt() {
        return options.runAt().orElse(null);
    }

    /** The delay after the database's current time; zero unless set. */
    public Duration delay() {
        return options.delay().orElse(Duration.ZERO);
    }

    /** The priority, 1 (first) to 10 (last). */
    public int priority() {
        return options.priority().orElse(EnqueueOptions.DEFAULT_PRIORITY);
    }

    /** The queue name, or {@code null} for the default queue. */
    public String queue() {
        return options.queue().orElse(null);
    }

    /** The maximum attempts, or {@code null} for the kind's or engine's default. */
    public Integer maxAttempts() {
        OptionalInt maxAttempts = options.maxAttempts();
        return maxAttempts.isPresent() ? Integer.valueOf(maxAttempts.getAsInt()) : null;
    }

    /** The unique key, or {@code null}. */
    public String uniqueKey() {
        return options.uniqueKey().orElse(null);
    }

    /** The conditions the task waits for, in the order given; empty if it does not wait. */
    public List<Condition> conditions() {
        return conditions;
    }

    /** The absolute deadline, or {@code null}. */
    public Instant expiresAt() {
        return options.expiresAt().orElse(null);
    }

    /** The deadline relative to the enqueue, on the database's clock, or {@code null}. */
    public Duration expiresIn() {
        return options.expiresIn().orElse(null);
    }

    /** The node the task is pinned to, or {@code null}: only that node claims it. */
    public String node() {
        return options.node().orElse(null);
    }

    /** The node group the task is pinned to, or {@code null}: only nodes of that group claim it. */
    public String nodeGroup() {
        return options.nodeGroup().orElse(null);
    }

    /** Builds a {@link TaskRequest}, with the setters of {@link EnqueueOptions.Builder} and its own. */
    public static final class Builder extends EnqueueOptions.Builder<Builder> {
        private final String kind;
        private final Class<?> payloadType;
        private final Object payload;
        private final List<Condition> conditions = new ArrayList<>();
        private String limitKey;

        private Builder(String kind, Class<?> payloadType, Object payload) {
            this.kind = TaskKind.requireValidName(kind);
            this.payloadType = payloadType;
            this.payload = payload;
        }

        /**
         * Makes the task wait for {@code event}: it is {@code waiting}, and becomes pending once every one of
         * its conditions has been triggered.
         *
         * @throws IllegalArgumentException if the name is not a valid event name, or the task already has a
         *     condition on it
         */
        public Builder condition(String event) {
            return condition(Condition.on(event));
        }

        /**
         * Makes the task wait for a condition's event, with the condition's own deadline if it has one.
         *
         * @throws IllegalArgumentException if the condition is null, or the task already has one on the same event
         */
        public Builder condition(Condition condition) {
            if (condition == null) {
                throw new IllegalArgumentException(
                        "condition must not be null; create one with Condition.on(\"event-name\")");
            }
            for (Condition existing : conditions) {
                if (existing.event().equals(condition.event())) {
                    throw new IllegalArgumentException("The task already waits for event '" + condition.event()
                            + "'; give each condition of a task a different event");
                }
            }
            conditions.add(condition);
            return this;
        }

        /**
         * Sets the task's flow-control key, such as {@code "customer-42"}. Where its kind declares a per-key
         * limit ({@code TaskDefinition.Builder.concurrencyLimitPerKey}), at most that many tasks of the kind with
         * this key run at once across the cluster; a limit of 1 makes the tasks of one key mutually exclusive,
         * while tasks of other keys run in parallel. Without a per-key limit on its kind, the key has no effect.
         *
         * @throws IllegalArgumentException if blank, padded with whitespace, longer than {@value
         *     #MAX_LIMIT_KEY_LENGTH} characters or holding a control character
         */
        public Builder limitKey(String key) {
            this.limitKey = dev.errand.config.Names.require("limitKey", key, MAX_LIMIT_KEY_LENGTH);
            return this;
        }

        /**
         * Fails the task as expired if it has not run by {@code deadline} (database clock), whether it is
         * waiting, pending or waiting for a retry. Replaces any {@link #expiresIn(Duration)}.
         *
         * @throws IllegalArgumentException if the deadline is null or already past
         */
        public Builder expiresAt(Instant deadline) {
            return deadline(deadline);
        }

        /**
         * Builds the request.
         *
         * @throws IllegalArgumentException if a condition's deadline is later than the task's own (when both
         *     are absolute, or both relative), or the task's deadline is before its run time
         */
        public TaskRequest build() {
            EnqueueOptions options = options();
            Instant expiresAt = options.expiresAt().orElse(null);
            Duration expiresIn = options.expiresIn().orElse(null);
            for (Condition condition : conditions) {
                boolean later = expiresAt != null
                                && condition.deadline().isPresent()
                                && condition.deadline().get().isAfter(expiresAt)
                        || expiresIn != null
                                && condition.timeout().isPresent()
                                && condition.timeout().get().compareTo(expiresIn) > 0;
                if (later) {
                    throw new IllegalArgumentException("The deadline of condition '" + condition.event()
                            + "' is later than the task's own deadline, so it could never apply; give the"
                            + " condition an earlier deadline, or none");
                }
            }
            Instant runAt = options.runAt().orElse(null);
            if (expiresAt != null && runAt != null && !expiresAt.isAfter(runAt)) {
                throw new IllegalArgumentException("The task's deadline " + expiresAt + " is not after its run time "
                        + runAt + ", so it would always expire; move the deadline later");
            }
            Duration delay = options.delay().orElse(Duration.ZERO);
            if (expiresIn != null && delay.compareTo(expiresIn) >= 0 && !delay.isZero()) {
                throw new IllegalArgumentException("The task's expiry timeout " + expiresIn
                        + " is not longer than its delay " + delay + ", so it would always expire");
            }
            return new TaskRequest(this, options);
        }
    }
}
