package dev.errand.enqueue;

import dev.errand.task.TaskDefinition;
import java.time.Duration;
import java.time.Instant;

/**
 * A task to enqueue: its kind, payload and options. Create one with {@link #of(String, Object)} or,
 * for options, {@link #builder(String, Object)}. Unset options take defaults: run now, priority 5,
 * queue {@code default}, the kind's maximum attempts, no unique key.
 */
public final class TaskRequest {

    /** Longest unique key the schema stores. */
    public static final int MAX_UNIQUE_KEY_LENGTH = 200;

    private final String kind;
    private final Object payload;
    private final Instant runAt;
    private final Duration delay;
    private final int priority;
    private final String queue;
    private final Integer maxAttempts;
    private final String uniqueKey;

    private TaskRequest(Builder builder) {
        this.kind = builder.kind;
        this.payload = builder.payload;
        this.runAt = builder.runAt;
        this.delay = builder.delay;
        this.priority = builder.priority;
        this.queue = builder.queue;
        this.maxAttempts = builder.maxAttempts;
        this.uniqueKey = builder.uniqueKey;
    }

    /**
     * A request with default options.
     *
     * @throws IllegalArgumentException if the kind is null, blank or too long
     */
    public static TaskRequest of(String kind, Object payload) {
        return builder(kind, payload).build();
    }

    /**
     * Starts a request with options.
     *
     * @throws IllegalArgumentException if the kind is null, blank or too long
     */
    public static Builder builder(String kind, Object payload) {
        return new Builder(kind, payload);
    }

    /** The kind. */
    public String kind() {
        return kind;
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

    /** Builds a {@link TaskRequest}. */
    public static final class Builder {
        private final String kind;
        private final Object payload;
        private Instant runAt;
        private Duration delay = Duration.ZERO;
        private int priority = 5;
        private String queue;
        private Integer maxAttempts;
        private String uniqueKey;

        private Builder(String kind, Object payload) {
            this.kind = TaskDefinition.requireValidKind(kind);
            this.payload = payload;
        }

        /**
         * Runs the task no earlier than {@code instant}. Replaces any delay.
         *
         * @throws IllegalArgumentException if null
         */
        public Builder runAt(Instant instant) {
            if (instant == null) {
                throw new IllegalArgumentException("runAt must not be null; omit it to run the task now");
            }
            this.runAt = instant;
            this.delay = Duration.ZERO;
            return this;
        }

        /**
         * Runs the task no earlier than {@code delay} after the database's current time. Replaces any
         * {@link #runAt(Instant)}.
         *
         * @throws IllegalArgumentException if null or negative
         */
        public Builder delay(Duration delay) {
            if (delay == null || delay.isNegative()) {
                throw new IllegalArgumentException("delay must be zero or more, got " + delay
                        + "; use runAt(Instant) for a fixed time");
            }
            this.delay = delay;
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
                throw new IllegalArgumentException("priority must be between 1 (runs first) and 10 (runs last), got "
                        + priority);
            }
            this.priority = priority;
            return this;
        }

        /**
         * Sets the queue; it must be declared on the Errand instance.
         *
         * @throws IllegalArgumentException if null or blank
         */
        public Builder queue(String queue) {
            if (queue == null || queue.isBlank()) {
                throw new IllegalArgumentException("queue must be a non-blank name, got "
                        + (queue == null ? "null" : "\"" + queue + "\""));
            }
            this.queue = queue;
            return this;
        }

        /**
         * Sets the most attempts for this task.
         *
         * @throws IllegalArgumentException if outside 1..1000
         */
        public Builder maxAttempts(int maxAttempts) {
            if (maxAttempts < 1 || maxAttempts > 1000) {
                throw new IllegalArgumentException("maxAttempts must be between 1 and 1000, got " + maxAttempts);
            }
            this.maxAttempts = maxAttempts;
            return this;
        }

        /**
         * Sets a unique key: while a task with this key is pending, waiting or running, enqueueing
         * another returns the existing task's id and writes nothing.
         *
         * @throws IllegalArgumentException if blank or longer than 200 characters
         */
        public Builder uniqueKey(String uniqueKey) {
            if (uniqueKey == null || uniqueKey.isBlank() || uniqueKey.length() > MAX_UNIQUE_KEY_LENGTH) {
                throw new IllegalArgumentException("uniqueKey must be 1 to " + MAX_UNIQUE_KEY_LENGTH
                        + " non-blank characters, got " + (uniqueKey == null ? "null" : "\"" + uniqueKey + "\""));
            }
            // MariaDB and MySQL compare keys ignoring trailing spaces; refusing them keeps keys portable.
            if (!uniqueKey.strip().equals(uniqueKey)) {
                throw new IllegalArgumentException("uniqueKey must not start or end with whitespace, got \""
                        + uniqueKey + "\"; strip it first");
            }
            this.uniqueKey = uniqueKey;
            return this;
        }

        /** Builds the request. */
        public TaskRequest build() {
            return new TaskRequest(this);
        }
    }
}
