package dev.errand.task;

import dev.errand.retry.RetryPolicy;
import java.time.Duration;
import java.util.Objects;

/**
 * A registered task kind: its handler, its payload type and its options. Build one with
 * {@link #builder(String, Class, TaskHandler)}.
 *
 * @param <P> the payload type
 */
public final class TaskDefinition<P> {

    /** Longest kind name the schema stores. */
    public static final int MAX_KIND_LENGTH = 200;

    private final String kind;
    private final Class<P> payloadType;
    private final TaskHandler<P> handler;
    private final ExecutionMode mode;
    private final RetryPolicy retryPolicy;
    private final Integer maxAttempts;
    private final Duration leaseDuration;
    private final LeaseExpiryAction leaseExpiryAction;
    private final FailureCallback failureCallback;

    private TaskDefinition(Builder<P> builder) {
        this.kind = builder.kind;
        this.payloadType = builder.payloadType;
        this.handler = builder.handler;
        this.mode = builder.mode;
        this.retryPolicy = builder.retryPolicy;
        this.maxAttempts = builder.maxAttempts;
        this.leaseDuration = builder.leaseDuration;
        this.leaseExpiryAction = builder.leaseExpiryAction;
        this.failureCallback = builder.failureCallback;
    }

    /**
     * Starts a definition. Options not set fall back to the engine's defaults.
     *
     * @param kind the kind name stored on each task, 1 to 200 characters, not blank
     * @param payloadType the class the JSON payload decodes into; records work
     * @param handler the handler that runs each task
     * @throws IllegalArgumentException if an argument is null or the kind is blank or too long
     */
    public static <P> Builder<P> builder(String kind, Class<P> payloadType, TaskHandler<P> handler) {
        return new Builder<>(kind, payloadType, handler);
    }

    /**
     * Checks a kind name, as used by definitions and enqueue requests.
     *
     * @throws IllegalArgumentException if it is null, blank or longer than 200 characters
     */
    public static String requireValidKind(String kind) {
        if (kind == null || kind.isBlank()) {
            throw new IllegalArgumentException("Task kind must be a non-blank name such as \"send-email\", got "
                    + (kind == null ? "null" : "\"" + kind + "\""));
        }
        if (!kind.strip().equals(kind)) {
            throw new IllegalArgumentException("Task kind must not start or end with whitespace, got \"" + kind + "\"");
        }
        if (kind.length() > MAX_KIND_LENGTH) {
            throw new IllegalArgumentException("Task kind must be at most " + MAX_KIND_LENGTH
                    + " characters, got " + kind.length());
        }
        return kind;
    }

    /** The kind name. */
    public String kind() {
        return kind;
    }

    /** The payload class. */
    public Class<P> payloadType() {
        return payloadType;
    }

    /** The handler. */
    public TaskHandler<P> handler() {
        return handler;
    }

    /** The execution mode; {@link ExecutionMode#TRANSACTIONAL} unless set. */
    public ExecutionMode mode() {
        return mode;
    }

    /** The kind's retry policy, or {@code null} for the engine default. */
    public RetryPolicy retryPolicy() {
        return retryPolicy;
    }

    /** The kind's default maximum attempts, or {@code null} for the engine default. */
    public Integer maxAttempts() {
        return maxAttempts;
    }

    /** The kind's lease duration, or {@code null} for the engine default. */
    public Duration leaseDuration() {
        return leaseDuration;
    }

    /** What rescue does when a worker running this kind is lost; {@link LeaseExpiryAction#RETRY} unless set. */
    public LeaseExpiryAction leaseExpiryAction() {
        return leaseExpiryAction;
    }

    /** The failure callback, or {@code null}. */
    public FailureCallback failureCallback() {
        return failureCallback;
    }

    /**
     * Builds a {@link TaskDefinition}.
     *
     * @param <P> the payload type
     */
    public static final class Builder<P> {
        private final String kind;
        private final Class<P> payloadType;
        private final TaskHandler<P> handler;
        private ExecutionMode mode = ExecutionMode.TRANSACTIONAL;
        private RetryPolicy retryPolicy;
        private Integer maxAttempts;
        private Duration leaseDuration;
        private LeaseExpiryAction leaseExpiryAction = LeaseExpiryAction.RETRY;
        private FailureCallback failureCallback;

        private Builder(String kind, Class<P> payloadType, TaskHandler<P> handler) {
            this.kind = requireValidKind(kind);
            this.payloadType = requireArgument(payloadType, "payloadType",
                    "pass the payload's class, or Void.class for tasks without one");
            this.handler = requireArgument(handler, "handler", "pass the TaskHandler that runs this kind");
        }

        /** Sets how the handler runs relative to the completing transaction. */
        public Builder<P> mode(ExecutionMode mode) {
            this.mode = requireArgument(mode, "mode", "use TRANSACTIONAL or NON_TRANSACTIONAL");
            return this;
        }

        /** Sets the delay policy between attempts. */
        public Builder<P> retryPolicy(RetryPolicy retryPolicy) {
            this.retryPolicy = requireArgument(retryPolicy, "retryPolicy",
                    "use RetryPolicy.fixed, exponential or delays");
            return this;
        }

        /**
         * Sets the default maximum attempts for tasks of this kind (an enqueue request may override it).
         *
         * @throws IllegalArgumentException if outside 1..1000
         */
        public Builder<P> maxAttempts(int maxAttempts) {
            if (maxAttempts < 1 || maxAttempts > 1000) {
                throw new IllegalArgumentException("maxAttempts must be between 1 and 1000, got " + maxAttempts);
            }
            this.maxAttempts = maxAttempts;
            return this;
        }

        /**
         * Sets how long a claim holds before rescue may take the task back, unless heartbeats extend it.
         *
         * @throws IllegalArgumentException if null or below one second
         */
        public Builder<P> leaseDuration(Duration leaseDuration) {
            if (leaseDuration == null || leaseDuration.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new IllegalArgumentException("leaseDuration must be at least 1 second, got " + leaseDuration);
            }
            this.leaseDuration = leaseDuration;
            return this;
        }

        /** Sets what rescue does when the worker running a task of this kind is lost. */
        public Builder<P> onLeaseExpired(LeaseExpiryAction action) {
            this.leaseExpiryAction = requireArgument(action, "action", "use RETRY or FAIL");
            return this;
        }

        /** Sets the callback that runs once when a task of this kind fails for good. */
        public Builder<P> onFailure(FailureCallback callback) {
            this.failureCallback = requireArgument(callback, "callback", "pass a FailureCallback");
            return this;
        }

        /** Builds the definition. */
        public TaskDefinition<P> build() {
            return new TaskDefinition<>(this);
        }

        private static <T> T requireArgument(T value, String name, String hint) {
            if (value == null) {
                throw new IllegalArgumentException(name + " must not be null: " + hint);
            }
            return value;
        }
    }

    @Override
    public String toString() {
        return "TaskDefinition[" + kind + ", " + mode + ", payload=" + Objects.toString(payloadType.getName()) + "]";
    }
}
