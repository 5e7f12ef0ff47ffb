package dev.errand.enqueue;

import dev.errand.config.ClusterSettings;
import dev.errand.config.Names;
import dev.errand.config.Settings;
import dev.errand.config.TimeLimits;
import dev.errand.event.Condition;
import dev.errand.retry.Delays;
import dev.errand.task.TaskKind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

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
    public static final int MAX_UNIQUE_KEY_LENGTH = 200;
    /** The earliest run time accepted (MariaDB's {@code DATETIME} starts here). */
    public static final Instant EARLIEST_RUN_AT = TimeLimits.EARLIEST;
    /** The latest run time accepted (MariaDB's {@code DATETIME} ends here). */
    public static final Instant LATEST_RUN_AT = TimeLimits.LATEST;

    private final String kind;
    private final Class<?> payloadType;
    private final Object payload;
    private final Instant runAt;
    private final Duration delay;
    private final int priority;
    private final String queue;
    private final Integer maxAttempts;
    private final String uniqueKey;
    private final List<Condition> conditions;
    private final Instant expiresAt;
    private final Duration expiresIn;
    private final String node;
    private final String nodeGroup;

    private TaskRequest(Builder builder) {
        this.kind = builder.kind;
        this.payloadType = builder.payloadType;
        this.payload = builder.payload;
        this.runAt = builder.runAt;
        this.delay = builder.delay;
        this.priority = builder.priority;
        this.queue = builder.queue;
        this.maxAttempts = builder.maxAttempts;
        this.uniqueKey = builder.uniqueKey;
        this.conditions = List.copyOf(builder.conditions);
        this.expiresAt = builder.expiresAt;
        this.expiresIn = builder.expiresIn;
        this.node = builder.node;
        this.nodeGroup = builder.nodeGroup;
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
        if (instant == null) {
            throw new IllegalArgumentException("runAt must not be null; omit it to run the task now");
        }
        return TimeLimits.requireInstant("runAt", instant);
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

    /** The explicit run time, or {@code null}. */
    public Instant runAt() {
        return runAt;
    }

    /** The delay after the database's current time; zero unless set. */
    public Duration delay() {
        return delay;
    }

    /** The priority, 1 (first) to 10 (last). */
    public int priority() {
        return priority;
    }

    /** The queue name, or {@code null} for the default queue. */
    public String queue() {
        return queue;
    }

    /** The maximum attempts, or {@code null} for the kind's or engine's default. */
    public Integer maxAttempts() {
        return maxAttempts;
    }

    /** The unique key, or {@code null}. */
    public String uniqueKey() {
        return uniqueKey;
    }

    /** The conditions the task waits for, in the order given; empty if it does not wait. */
    public List<Condition> conditions() {
        return conditions;
    }

    /** The absolute deadline, or {@code null}. */
    public Instant expiresAt() {
        return expiresAt;
    }

    /** The deadline relative to the enqueue, on the database's clock, or {@code null}. */
    public Duration expiresIn() {
        return expiresIn;
    }

    /** The node the task is pinned to, or {@code null}: only that node claims it. */
    public String node() {
        return node;
    }

    /** The node group the task is pinned to, or {@code null}: only nodes of that group claim it. */
    public String nodeGroup() {
        return nodeGroup;
    }

    /** Builds a {@link TaskRequest}. */
    public static final class Builder {
        private final String kind;
        private final Class<?> payloadType;
        private final Object payload;
        private Instant runAt;
        private Duration delay = Duration.ZERO;
        private int priority = 5;
        private String queue;
        private Integer maxAttempts;
        private String uniqueKey;
        private final List<Condition> conditions = new ArrayList<>();
        private Instant expiresAt;
        private Duration expiresIn;
        private String node;
        private String nodeGroup;

        private Builder(String kind, Class<?> payloadType, Object payload) {
            this.kind = TaskKind.requireValidName(kind);
            this.payloadType = payloadType;
            this.payload = payload;
        }

        /**
         * Runs the task no earlier than {@code instant}. Replaces any delay.
         *
         * @throws IllegalArgumentException if null, or outside the years 1000 to 9999
         */
        public Builder runAt(Instant instant) {
            this.runAt = requireRunAt(instant);
            this.delay = Duration.ZERO;
            return this;
        }

        /**
         * Runs the task no earlier than {@code delay} after the database's current time. Replaces any
         * {@link #runAt(Instant)}.
         *
         * @throws IllegalArgumentException if null, negative or longer than {@link Delays#MAX}
         */
        public Builder delay(Duration delay) {
            this.delay = Delays.require("delay", delay);
            this.runAt = null;
            return this;
        }

        /**
         * Sets the priority: 1 runs first, 10 last (default 5).
         *
         * @throws IllegalArgumentException if outside 1..10
         */
        public Builder priority(int priority) {
            if (priority < 1 || priority > 10) {
                throw new IllegalArgumentException(
                        "priority must be between 1 (runs first) and 10 (runs last), got " + priority);
            }
            this.priority = priority;
            return this;
        }

        /**
         * Sets the queue; it must be declared on the Errand node that enqueues.
         *
         * @throws IllegalArgumentException if it is not a valid queue name
         */
        public Builder queue(String queue) {
            this.queue = Names.require("queue", queue, 100);
            return this;
        }

        /**
         * Sets the most attempts for this task.
         *
         * @throws IllegalArgumentException if outside 1..1000
         */
        public Builder maxAttempts(int maxAttempts) {
            this.maxAttempts = Settings.MAX_ATTEMPTS.require(maxAttempts);
            return this;
        }

        /**
         * Pins the task to one node: only the node with this id claims it. With {@link #nodeGroup} as well,
         * the group is where a kind whose pin policy falls back sends it once the node is dead.
         *
         * @throws IllegalArgumentException if the id is blank, padded, longer than 200 characters or holds a
         *     control character
         */
        public Builder node(String nodeId) {
            this.node = Names.require("Pinned node id", nodeId, 200);
            return this;
        }

        /**
         * Pins the task to a node group: only nodes that serve this group claim it.
         *
         * @throws IllegalArgumentException if the name is empty, padded, longer than 200 characters, or
         *     holds a comma or control character
         */
        public Builder nodeGroup(String group) {
            this.nodeGroup = ClusterSettings.requireGroup(group);
            return this;
        }

        /**
         * Sets a unique key: while a task with this key is pending, waiting or running, enqueueing
         * another returns the existing task (see {@link Enqueued#deduplicated()}) and writes nothing.
         *
         * @throws IllegalArgumentException if blank, padded with whitespace, longer than 200 characters
         *     or holding a control character
         */
        public Builder uniqueKey(String uniqueKey) {
            this.uniqueKey = Names.require("uniqueKey", uniqueKey, MAX_UNIQUE_KEY_LENGTH);
            return this;
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
         * Fails the task as expired if it has not run by {@code deadline} (database clock), whether it is
         * waiting, pending or waiting for a retry. Replaces any {@link #expiresIn(Duration)}.
         *
         * @throws IllegalArgumentException if the deadline is null or already past
         */
        public Builder expiresAt(Instant deadline) {
            this.expiresAt = Condition.requireFuture("The task's deadline", deadline);
            this.expiresIn = null;
            return this;
        }

        /**
         * Fails the task as expired if it has not run within {@code timeout} of being enqueued (database
         * clock). Replaces any {@link #expiresAt(Instant)}.
         *
         * @throws IllegalArgumentException if the timeout is null, not positive, or longer than {@link Delays#MAX}
         */
        public Builder expiresIn(Duration timeout) {
            this.expiresIn = Condition.requirePositive("The task's expiry timeout", timeout);
            this.expiresAt = null;
            return this;
        }

        /**
         * Builds the request.
         *
         * @throws IllegalArgumentException if a condition's deadline is later than the task's own (when both
         *     are absolute, or both relative), or the task's deadline is before its run time
         */
        public TaskRequest build() {
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
            if (expiresAt != null && runAt != null && !expiresAt.isAfter(runAt)) {
                throw new IllegalArgumentException("The task's deadline " + expiresAt + " is not after its run time "
                        + runAt + ", so it would always expire; move the deadline later");
            }
            if (expiresIn != null && delay.compareTo(expiresIn) >= 0 && !delay.isZero()) {
                throw new IllegalArgumentException("The task's expiry timeout " + expiresIn
                        + " is not longer than its delay " + delay + ", so it would always expire");
            }
            return new TaskRequest(this);
        }
    }
}
