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
 * How a continuation is enqueued, for {@link TaskContext#continueWith(TaskKind, Object, ContinueOptions)}:
 * the options of {@code TaskRequest.Builder} that make sense for a next step (run time, priority, queue,
 * attempts, pinning, unique key, expiry). Unset options take the same defaults as an enqueue, except the
 * queue: it stays the current task's. It lives here, and not as a {@code TaskRequest}, because the enqueue
 * API depends on this package and not the other way round.
 */
public final class ContinueOptions {

    private final Duration delay;
    private final Instant runAt;
    private final Integer priority;
    private final String queue;
    private final Integer maxAttempts;
    private final String node;
    private final String nodeGroup;
    private final String uniqueKey;
    private final Duration expiresIn;

    private ContinueOptions(Builder builder) {
        this.delay = builder.delay;
        this.runAt = builder.runAt;
        this.priority = builder.priority;
        this.queue = builder.queue;
        this.maxAttempts = builder.maxAttempts;
        this.node = builder.node;
        this.nodeGroup = builder.nodeGroup;
        this.uniqueKey = builder.uniqueKey;
        this.expiresIn = builder.expiresIn;
    }

    /** Starts a set of options; every option is unset. */
    public static Builder builder() {
        return new Builder();
    }

    /** The delay after the completion (database clock), if set. */
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

    /** The queue, if set; otherwise the continuation runs in the current task's queue. */
    public Optional<String> queue() {
        return Optional.ofNullable(queue);
    }

    /** The most attempts, if set. */
    public OptionalInt maxAttempts() {
        return maxAttempts == null ? OptionalInt.empty() : OptionalInt.of(maxAttempts);
    }

    /** The node the continuation is pinned to, if set. */
    public Optional<String> node() {
        return Optional.ofNullable(node);
    }

    /** The node group the continuation is pinned to, if set. */
    public Optional<String> nodeGroup() {
        return Optional.ofNullable(nodeGroup);
    }

    /** The unique key, if set. */
    public Optional<String> uniqueKey() {
        return Optional.ofNullable(uniqueKey);
    }

    /** How long after its enqueue the continuation expires if it has not run, if set. */
    public Optional<Duration> expiresIn() {
        return Optional.ofNullable(expiresIn);
    }

    /** Builds {@link ContinueOptions}; each setter checks its argument as {@code TaskRequest.Builder} does. */
    public static final class Builder {
        private Duration delay;
        private Instant runAt;
        private Integer priority;
        private String queue;
        private Integer maxAttempts;
        private String node;
        private String nodeGroup;
        private String uniqueKey;
        private Duration expiresIn;

        private Builder() {}

        /**
         * Runs the continuation no earlier than {@code delay} after the database's current time when the
         * current task completes. Replaces any {@link #runAt(Instant)}.
         *
         * @throws IllegalArgumentException if null, negative or longer than {@link Delays#MAX}
         */
        public Builder delay(Duration delay) {
            this.delay = Delays.require("delay", delay);
            this.runAt = null;
            return this;
        }

        /**
         * Runs the continuation no earlier than {@code instant}. Replaces any delay.
         *
         * @throws IllegalArgumentException if null, or outside the years 1000 to 9999 that every supported
         *     database stores ({@link TimeLimits})
         */
        public Builder runAt(Instant instant) {
            if (instant == null) {
                throw new IllegalArgumentException("runAt must not be null; omit it to run the continuation now");
            }
            this.runAt = TimeLimits.requireInstant("runAt", instant);
            this.delay = null;
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
         * Sets the queue (default: the current task's); {@code continueWith} checks that this node declares it.
         *
         * @throws IllegalArgumentException if it is not a valid queue name
         */
        public Builder queue(String queue) {
            this.queue = Names.require("queue", queue, 100);
            return this;
        }

        /**
         * Sets the most attempts of the continuation.
         *
         * @throws IllegalArgumentException if outside 1..1000
         */
        public Builder maxAttempts(int maxAttempts) {
            this.maxAttempts = Settings.MAX_ATTEMPTS.require(maxAttempts);
            return this;
        }

        /**
         * Pins the continuation to one node.
         *
         * @throws IllegalArgumentException if the id is blank, padded, longer than 200 characters or holds a
         *     control character
         */
        public Builder node(String nodeId) {
            this.node = Names.require("Pinned node id", nodeId, 200);
            return this;
        }

        /**
         * Pins the continuation to a node group.
         *
         * @throws IllegalArgumentException if the name is empty, padded, longer than 200 characters, or holds
         *     a comma or control character
         */
        public Builder nodeGroup(String group) {
            this.nodeGroup = ClusterSettings.requireGroup(group);
            return this;
        }

        /**
         * Sets a unique key: while a task with this key is pending, waiting or running, the continuation is
         * not created again.
         *
         * @throws IllegalArgumentException if blank, padded with whitespace, longer than 200 characters or
         *     holding a control character
         */
        public Builder uniqueKey(String uniqueKey) {
            this.uniqueKey = Names.require("uniqueKey", uniqueKey, 200);
            return this;
        }

        /**
         * Fails the continuation as expired if it has not run within {@code timeout} of being created.
         *
         * @throws IllegalArgumentException if null, not positive, or longer than {@link Delays#MAX}
         */
        public Builder expiresIn(Duration timeout) {
            this.expiresIn = Condition.requirePositive("The continuation's expiry timeout", timeout);
            return this;
        }

        /** Builds the options. */
        public ContinueOptions build() {
            return new ContinueOptions(this);
        }
    }
}
