package dev.errand.task;

import dev.errand.config.ClusterSettings;
import dev.errand.config.Names;
import dev.errand.config.Settings;
import dev.errand.config.TimeLimits;
import dev.errand.event.Condition;
import dev.errand.retry.Delays;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The options of a new task that an enqueue ({@code TaskRequest}) and a continuation ({@link ContinueOptions})
 * share: run time, priority, queue, attempts, pinning, unique key and deadline. Each is unset until set; an unset
 * option takes the default of whoever creates the task. Immutable; {@code TaskRequest.Builder} and
 * {@link ContinueOptions.Builder} collect it, with the setters of {@link Builder}. It lives here, and not beside
 * {@code TaskRequest}, because the enqueue API depends on this package and not the other way round.
 */
public final class EnqueueOptions {

    /** The priority of a task that sets none. */
    public static final int DEFAULT_PRIORITY = 5;
    /** Longest unique key the schema stores. */
    public static final int MAX_UNIQUE_KEY_LENGTH = 200;
    /** The earliest run time accepted (MariaDB's {@code DATETIME} starts here). */
    public static final Instant EARLIEST_RUN_AT = TimeLimits.EARLIEST;
    /** The latest run time accepted (MariaDB's {@code DATETIME} ends here). */
    public static final Instant LATEST_RUN_AT = TimeLimits.LATEST;

    private final Duration delay;
    private final Instant runAt;
    private final Integer priority;
    private final String queue;
    private final Integer maxAttempts;
    private final String node;
    private final String nodeGroup;
    private final String uniqueKey;
    private final Instant expiresAt;
    private final Duration expiresIn;

    private EnqueueOptions(Builder<?> builder) {
        this.delay = builder.delay;
        this.runAt = builder.runAt;
        this.priority = builder.priority;
        this.queue = builder.queue;
        this.maxAttempts = builder.maxAttempts;
        this.node = builder.node;
        this.nodeGroup = builder.nodeGroup;
        this.uniqueKey = builder.uniqueKey;
        this.expiresAt = builder.expiresAt;
        this.expiresIn = builder.expiresIn;
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

    /** The delay after the database's current time, if set. */
    public Optional<Duration> delay() {
        return Optional.ofNullable(delay);
    }

    /** The earliest run time, if set. */
    public Optional<Instant> runAt() {
        return Optional.ofNullable(runAt);
    }

    /** The priority, if set. */
    public OptionalInt priority() {
        return priority == null ? OptionalInt.empty() : OptionalInt.of(priority);
    }

    /** The queue, if set. */
    public Optional<String> queue() {
        return Optional.ofNullable(queue);
    }

    /** The most attempts, if set. */
    public OptionalInt maxAttempts() {
        return maxAttempts == null ? OptionalInt.empty() : OptionalInt.of(maxAttempts);
    }

    /** The node the task is pinned to, if set. */
    public Optional<String> node() {
        return Optional.ofNullable(node);
    }

    /** The node group the task is pinned to, if set. */
    public Optional<String> nodeGroup() {
        return Optional.ofNullable(nodeGroup);
    }

    /** The unique key, if set. */
    public Optional<String> uniqueKey() {
        return Optional.ofNullable(uniqueKey);
    }

    /** The absolute deadline, if set. */
    public Optional<Instant> expiresAt() {
        return Optional.ofNullable(expiresAt);
    }

    /** How long after its enqueue the task expires if it has not run, if set. */
    public Optional<Duration> expiresIn() {
        return Optional.ofNullable(expiresIn);
    }

    /**
     * The setters of {@link EnqueueOptions}, each of which checks its argument at once. {@code TaskRequest.Builder}
     * and {@link ContinueOptions.Builder} extend it.
     *
     * @param <B> the builder itself, which every setter returns
     */
    public abstract static class Builder<B extends Builder<B>> {
        private Duration delay;
        private Instant runAt;
        private Integer priority;
        private String queue;
        private Integer maxAttempts;
        private String node;
        private String nodeGroup;
        private String uniqueKey;
        private Instant expiresAt;
        private Duration expiresIn;

        /** For the builders of requests and continuations. */
        protected Builder() {}

        /**
         * Runs the task no earlier than {@code delay} after the database's current time (for a continuation: when
         * the current task completes). Replaces any {@link #runAt(Instant)}.
         *
         * @throws IllegalArgumentException if null, negative or longer than {@link Delays#MAX}
         */
        public B delay(Duration delay) {
            this.delay = Delays.require("delay", delay);
            this.runAt = null;
            return self();
        }

        /**
         * Runs the task no earlier than {@code instant}. Replaces any delay.
         *
         * @throws IllegalArgumentException if null, or outside the years 1000 to 9999
         */
        public B runAt(Instant instant) {
            this.runAt = requireRunAt(instant);
            this.delay = null;
            return self();
        }

        /**
         * Sets the priority: 1 runs first, 10 last (default {@value EnqueueOptions#DEFAULT_PRIORITY}).
         *
         * @throws IllegalArgumentException if outside 1..10
         */
        public B priority(int priority) {
            if (priority < 1 || priority > 10) {
                throw new IllegalArgumentException(
                        "priority must be between 1 (runs first) and 10 (runs last), got " + priority);
            }
            this.priority = priority;
            return self();
        }

        /**
         * Sets the queue; it must be declared on the Errand node that creates the task.
         *
         * @throws IllegalArgumentException if it is not a valid queue name
         */
        public B queue(String queue) {
            this.queue = Names.require("queue", queue, 100);
            return self();
        }

        /**
         * Sets the most attempts of the task.
         *
         * @throws IllegalArgumentException if outside 1..1000
         */
        public B maxAttempts(int maxAttempts) {
            this.maxAttempts = Settings.MAX_ATTEMPTS.require(maxAttempts);
            return self();
        }

        /**
         * Pins the task to one node: only the node with this id claims it. With {@link #nodeGroup} as well,
         * the group is where a kind whose pin policy falls back sends it once the node is dead.
         *
         * @throws IllegalArgumentException if the id is blank, padded, longer than 200 characters or holds a
         *     control character
         */
        public B node(String nodeId) {
            this.node = Names.require("Pinned node id", nodeId, 200);
            return self();
        }

        /**
         * Pins the task to a node group: only nodes that serve this group claim it.
         *
         * @throws IllegalArgumentException if the name is empty, padded, longer than 200 characters, or
         *     holds a comma or control character
         */
        public B nodeGroup(String group) {
            this.nodeGroup = ClusterSettings.requireGroup(group);
            return self();
        }

        /**
         * Sets a unique key: while a task with this key is pending, waiting or running, no other task with it is
         * created (an enqueue returns the existing task instead).
         *
         * @throws IllegalArgumentException if blank, padded with whitespace, longer than 200 characters
         *     or holding a control character
         */
        public B uniqueKey(String uniqueKey) {
            this.uniqueKey = Names.require("uniqueKey", uniqueKey, MAX_UNIQUE_KEY_LENGTH);
            return self();
        }

        /**
         * Fails the task as expired if it has not run within {@code timeout} of being created (database
         * clock). Replaces an absolute deadline.
         *
         * @throws IllegalArgumentException if the timeout is null, not positive, or longer than {@link Delays#MAX}
         */
        public B expiresIn(Duration timeout) {
            this.expiresIn = Condition.requirePositive("The task's expiry timeout", timeout);
            this.expiresAt = null;
            return self();
        }

        /**
         * Sets an absolute deadline, for the builders that offer one. Replaces any {@link #expiresIn(Duration)}.
         *
         * @throws IllegalArgumentException if the deadline is null or already past
         */
        protected final B deadline(Instant deadline) {
            this.expiresAt = Condition.requireFuture("The task's deadline", deadline);
            this.expiresIn = null;
            return self();
        }

        /** The options collected so far. */
        protected final EnqueueOptions options() {
            return new EnqueueOptions(this);
        }

        @SuppressWarnings("unchecked")
        private B self() {
            // Every subclass passes itself as B (class Builder extends EnqueueOptions.Builder<Builder>).
            return (B) this;
        }
    }
}
