package dev.errand.task;

import dev.errand.config.Settings;
import dev.errand.flow.FlowLimits;
import dev.errand.flow.RateLimit;
import dev.errand.node.PinPolicy;
import dev.errand.retry.DelayList;
import dev.errand.retry.RetryPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * A registered task kind: its handler and its options. Build one with
 * {@link #builder(TaskKind, TaskHandler)}.
 *
 * @param <P> the payload type
 */
public final class TaskDefinition<P> {

    private final TaskKind<P> taskKind;
    private final TaskHandler<P> handler;
    private final ExecutionMode mode;
    private final RetryPolicy retryPolicy;
    private final Integer maxAttempts;
    private final Duration leaseDuration;
    private final Duration executionTimeout;
    private final PinPolicy pinPolicy;
    private final LeaseExpiryAction leaseExpiryAction;
    private final FailureCallback<? super P> failureCallback;
    private final List<Class<? extends Exception>> writesCommitOn;
    private final Map<TaskState, Duration> retentions;
    private final Integer concurrencyLimit;
    private final Integer concurrencyLimitPerKey;
    private final RateLimit rateLimit;
    private final RateLimit rateLimitPerKey;
    private final String limitKeyFrom;
    private final int groupCommit;

    private TaskDefinition(Builder<P> builder) {
        this.taskKind = builder.kind;
        this.handler = builder.handler;
        this.mode = builder.mode;
        this.retryPolicy = builder.retryPolicy;
        this.maxAttempts = builder.maxAttempts != null
                ? builder.maxAttempts
                : builder.retryPolicy instanceof DelayList delays ? delays.attemptsCovered() : null;
        this.leaseDuration = builder.leaseDuration;
        this.executionTimeout = builder.executionTimeout;
        this.pinPolicy = builder.pinPolicy;
        this.leaseExpiryAction = builder.leaseExpiryAction;
        this.failureCallback = builder.failureCallback;
        this.writesCommitOn = List.copyOf(builder.writesCommitOn);
        this.retentions = Map.copyOf(builder.retentions);
        this.concurrencyLimit = builder.concurrencyLimit;
        this.concurrencyLimitPerKey = builder.concurrencyLimitPerKey;
        this.rateLimit = builder.rateLimit;
        this.rateLimitPerKey = builder.rateLimitPerKey;
        this.limitKeyFrom = builder.limitKeyFrom;
        this.groupCommit = builder.groupCommit;
    }

    /**
     * The most tasks of this kind that run in one database transaction and commit together, each under a
     * savepoint; 1 (the default) for one transaction per task. See {@link Builder#groupCommit(int)}.
     */
    public int groupCommit() {
        return groupCommit;
    }

    /**
     * Where the limit key of this kind's tasks is read from their payload, as a JSON pointer such as {@code
     * "/customerId"}, or null when keys are given only with {@code TaskRequest.Builder.limitKey}. See {@link
     * Builder#limitKeyFrom(String)}.
     */
    public String limitKeyFrom() {
        return limitKeyFrom;
    }

    /**
     * The most tasks of this kind that may run at once across the whole cluster, or null for no limit. See
     * {@link Builder#concurrencyLimit(int)}.
     */
    public Integer concurrencyLimit() {
        return concurrencyLimit;
    }

    /**
     * The most tasks of this kind with one limit key that may run at once across the cluster, or null for no
     * per-key limit. See {@link Builder#concurrencyLimitPerKey(int)}.
     */
    public Integer concurrencyLimitPerKey() {
        return concurrencyLimitPerKey;
    }

    /** The most starts of this kind per period across the cluster, or null. See {@link Builder#rateLimit}. */
    public RateLimit rateLimit() {
        return rateLimit;
    }

    /**
     * The most starts of this kind with one limit key per period across the cluster, or null. See {@link
     * Builder#rateLimitPerKey}.
     */
    public RateLimit rateLimitPerKey() {
        return rateLimitPerKey;
    }

    /**
     * Starts a definition of {@code kind}. Options not set fall back to the engine's defaults.
     *
     * @throws IllegalArgumentException if an argument is null
     */
    public static <P> Builder<P> builder(TaskKind<P> kind, TaskHandler<P> handler) {
        return new Builder<>(kind, handler);
    }

    /**
     * Starts a definition from a kind name and payload type, the same as
     * {@code builder(TaskKind.of(kind, payloadType), handler)}.
     *
     * @param kind the kind name stored on each task, 1 to 200 characters, not blank
     * @param payloadType the class the JSON payload decodes into; records work
     * @param handler the handler that runs each task
     * @throws IllegalArgumentException if an argument is null or the kind is not a valid name
     */
    public static <P> Builder<P> builder(String kind, Class<P> payloadType, TaskHandler<P> handler) {
        return new Builder<>(TaskKind.of(kind, payloadType), handler);
    }

    /** The kind name. */
    public String kind() {
        return taskKind.name();
    }

    /** The typed kind. */
    public TaskKind<P> taskKind() {
        return taskKind;
    }

    /** The payload class. */
    public Class<P> payloadType() {
        return taskKind.payloadType();
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

    /**
     * The kind's default maximum attempts: as set, else one more than the delays of a
     * {@link RetryPolicy#delays delay list}, else {@code null} for the engine default.
     */
    public Integer maxAttempts() {
        return maxAttempts;
    }

    /** The kind's lease duration, or {@code null} for the engine default. */
    public Duration leaseDuration() {
        return leaseDuration;
    }

    /**
     * The longest one attempt may run before its handler is interrupted and the attempt fails, or
     * {@code null} for no limit.
     */
    public Duration executionTimeout() {
        return executionTimeout;
    }

    /** What happens to this kind's tasks pinned to a node that is dead or never registered. */
    public PinPolicy pinPolicy() {
        return pinPolicy;
    }

    /** What rescue does when a worker running this kind is lost; {@link LeaseExpiryAction#RETRY} unless set. */
    public LeaseExpiryAction leaseExpiryAction() {
        return leaseExpiryAction;
    }

    /** The failure callback, or {@code null}. */
    public FailureCallback<? super P> failureCallback() {
        return failureCallback;
    }

    /**
     * How long finished tasks of this kind are kept, per final state, where the kind sets its own retention
     * instead of the node's; empty by default.
     */
    public Map<TaskState, Duration> retentions() {
        return retentions;
    }

    /** The exception types after which a transactional attempt still commits its writes; empty by default. */
    public List<Class<? extends Exception>> writesCommitOn() {
        return writesCommitOn;
    }

    /**
     * Whether a transactional attempt that threw {@code failure} commits its writes together with the
     * failed attempt: true if it is an instance of one of {@link #writesCommitOn()}.
     */
    public boolean commitsWritesOn(Throwable failure) {
        for (Class<? extends Exception> type : writesCommitOn) {
            if (type.isInstance(failure)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Builds a {@link TaskDefinition}.
     *
     * @param <P> the payload type
     */
    public static final class Builder<P> {
        private final TaskKind<P> kind;
        private final TaskHandler<P> handler;
        private ExecutionMode mode = ExecutionMode.TRANSACTIONAL;
        private RetryPolicy retryPolicy;
        private Integer maxAttempts;
        private Duration leaseDuration;
        private Duration executionTimeout;
        private PinPolicy pinPolicy = PinPolicy.waitForNode();
        private LeaseExpiryAction leaseExpiryAction = LeaseExpiryAction.RETRY;
        private FailureCallback<? super P> failureCallback;
        private final List<Class<? extends Exception>> writesCommitOn = new ArrayList<>();
        private final Map<TaskState, Duration> retentions = new EnumMap<>(TaskState.class);
        private Integer concurrencyLimit;
        private Integer concurrencyLimitPerKey;
        private RateLimit rateLimit;
        private RateLimit rateLimitPerKey;
        private String limitKeyFrom;
        private int groupCommit = 1;

        private Builder(TaskKind<P> kind, TaskHandler<P> handler) {
            this.kind = requireArgument(kind, "kind", "declare one with TaskKind.of(name, PayloadType.class)");
            this.handler =
                    requireArgument(handler, "handler", "pass the TaskHandler that runs kind '" + kind.name() + "'");
        }

        /** Sets how the handler runs relative to the completing transaction. */
        public Builder<P> mode(ExecutionMode mode) {
            this.mode = requireArgument(mode, "mode", "use TRANSACTIONAL or NON_TRANSACTIONAL");
            return this;
        }

        /**
         * Sets the delay policy between attempts. A {@link RetryPolicy#delays delay list} also sets the
         * maximum attempts to one more than its delays, unless {@link #maxAttempts(int)} is set.
         */
        public Builder<P> retryPolicy(RetryPolicy retryPolicy) {
            this.retryPolicy =
                    requireArgument(retryPolicy, "retryPolicy", "use RetryPolicy.fixed, exponential or delays");
            return this;
        }

        /**
         * Sets the default maximum attempts for tasks of this kind (an enqueue request may override it).
         *
         * @throws IllegalArgumentException if outside 1..1000
         */
        public Builder<P> maxAttempts(int maxAttempts) {
            this.maxAttempts = Settings.MAX_ATTEMPTS.require(maxAttempts);
            return this;
        }

        /**
         * Sets what happens to this kind's tasks pinned to a node that is dead or never registered (default
         * {@link PinPolicy#waitForNode()}). The leader applies it, with its own registration
         * of the kind.
         *
         * @throws IllegalArgumentException if null
         */
        public Builder<P> pinPolicy(PinPolicy policy) {
            if (policy == null) {
                throw new IllegalArgumentException("pinPolicy must not be null; use PinPolicy.waitForNode(),"
                        + " failAfter(timeout) or fallBackToGroup()");
            }
            this.pinPolicy = policy;
            return this;
        }

        /**
         * Sets how long a claim holds before rescue may take the task back, unless heartbeats extend it.
         *
         * @throws IllegalArgumentException if null or outside 1 s to 24 h
         */
        public Builder<P> leaseDuration(Duration leaseDuration) {
            this.leaseDuration = Settings.LEASE_DURATION.require(leaseDuration);
            return this;
        }

        /**
         * Sets the longest one attempt may run. Past it the worker interrupts the handler; a transactional
         * attempt rolls back (on PostgreSQL its statements are also cancelled at the deadline), and the
         * attempt counts as failed, with an {@link ExecutionTimeoutException} as its error. A handler that
         * ignores interrupts still fails when it returns. No limit unless set.
         *
         * @throws IllegalArgumentException if null or outside 10 ms to 24 h
         */
        public Builder<P> executionTimeout(Duration timeout) {
            this.executionTimeout = Settings.EXECUTION_TIMEOUT.require(timeout);
            return this;
        }

        /** Sets what rescue does when the worker running a task of this kind is lost. */
        public Builder<P> onLeaseExpired(LeaseExpiryAction action) {
            this.leaseExpiryAction = requireArgument(action, "action", "use RETRY or FAIL");
            return this;
        }

        /** Sets the callback that runs once when a task of this kind fails for good. */
        public Builder<P> onFailure(FailureCallback<? super P> callback) {
            this.failureCallback = requireArgument(callback, "callback", "pass a FailureCallback");
            return this;
        }

        /**
         * Names exceptions that fail an attempt but keep its writes: when a transactional handler throws one
         * of these types (or a subtype), its database writes commit together with the failed attempt (its
         * retry, or its final failure and failure callback) instead of rolling back. Use it for work that
         * must record what it did even when it fails, such as a log row or a partial result. It has no
         * effect on a non-transactional kind, which has no transaction.
         *
         * @throws IllegalArgumentException if no type is given, or one is null
         */
        @SafeVarargs
        public final Builder<P> commitWritesOn(Class<? extends Exception>... types) {
            if (types == null || types.length == 0) {
                throw new IllegalArgumentException(
                        "commitWritesOn needs at least one exception type, such as PartialFailure.class");
            }
            for (Class<? extends Exception> type : types) {
                writesCommitOn.add(requireArgument(type, "exception type", "pass an exception class"));
            }
            return this;
        }

        /**
         * Keeps this kind's tasks in a final state for {@code keep} after they finished, instead of the node's
         * retention for that state; the pruner then deletes them. A succeeded task is kept at all only while
         * the node's {@code succeededRetention} is on (otherwise its row is deleted when it completes).
         *
         * @throws IllegalArgumentException if the state is not SUCCEEDED, FAILED or CANCELLED, or the duration
         *     is outside 1 s to 3650 days
         */
        public Builder<P> retention(TaskState state, Duration keep) {
            if (state != TaskState.SUCCEEDED && state != TaskState.FAILED && state != TaskState.CANCELLED) {
                throw new IllegalArgumentException(
                        "retention applies to finished tasks: give SUCCEEDED, FAILED or" + " CANCELLED, got " + state);
            }
            retentions.put(state, Settings.FAILED_RETENTION.require("retention of " + state, keep));
            return this;
        }

        /**
         * Limits how many tasks of this kind run at once across the whole cluster, whatever the number of nodes
         * and their queues' concurrency. A task held back by the limit stays pending, spends no attempt, and is
         * claimed when a running one ends (or its lease is rescued). Enforced in the claim's transaction; see
         * docs/FLOW-CONTROL.md. Every node writes its declared limit when it starts; {@code FlowAdmin} can
         * override it at run time.
         *
         * @param maxRunning the most tasks of this kind running at once, 1 to {@value
         *     FlowLimits#MAX_CONCURRENCY_LIMIT}
         * @throws IllegalArgumentException if outside that range
         */
        public Builder<P> concurrencyLimit(int maxRunning) {
            this.concurrencyLimit =
                    FlowLimits.requireConcurrencyLimit(maxRunning, "concurrencyLimit of kind '" + kind.name() + "'");
            requireOneLimit();
            return this;
        }

        /**
         * Limits how many tasks of this kind with one limit key ({@code TaskRequest.Builder.limitKey}) run at
         * once across the whole cluster; tasks of different keys run in parallel, and tasks without a key are not
         * limited. A limit of 1 makes the tasks of one key mutually exclusive (one customer's tasks never run at
         * the same time). A task held back stays pending and spends no attempt. A kind has either this or
         * {@link #concurrencyLimit(int)}, not both. See docs/FLOW-CONTROL.md.
         *
         * @param maxRunning the most tasks of one key running at once, 1 to {@value
         *     FlowLimits#MAX_CONCURRENCY_LIMIT}
         * @throws IllegalArgumentException if outside that range, or the kind has a concurrency limit
         */
        public Builder<P> concurrencyLimitPerKey(int maxRunning) {
            this.concurrencyLimitPerKey = FlowLimits.requireConcurrencyLimit(
                    maxRunning, "concurrencyLimitPerKey of kind '" + kind.name() + "'");
            requireOneLimit();
            return this;
        }

        /**
         * Limits how many tasks of this kind start in any window of {@code period} across the whole cluster, on the
         * database clock: for example {@code rateLimit(100, Duration.ofMinutes(1))}. A task held back stays pending
         * and spends no attempt. A kind has one flow limit: this, {@link #concurrencyLimit(int)} or
         * {@link #concurrencyLimitPerKey(int)}. See docs/FLOW-CONTROL.md for the algorithm and its accuracy.
         *
         * @param starts the most starts per period, 1 to {@value FlowLimits#MAX_CONCURRENCY_LIMIT}
         * @param period the window, 1 ms to 24 h, in whole milliseconds
         * @throws IllegalArgumentException if either is out of range, or the kind has another flow limit
         */
        public Builder<P> rateLimit(int starts, Duration period) {
            this.rateLimit = new RateLimit(starts, period);
            requireOneLimit();
            return this;
        }

        /**
         * Limits how many tasks of this kind with one limit key ({@code TaskRequest.Builder.limitKey}, or {@link
         * #limitKeyFrom}) start in any window of {@code period} across the whole cluster, on the database clock: for
         * example {@code rateLimitPerKey(10, Duration.ofMinutes(1))} for 10 starts a minute per tenant. Keys are
         * limited apart, so a busy key does not hold back the others; tasks without a key are not limited. A task
         * held back stays pending and spends no attempt. A kind has one flow limit: this, {@link #rateLimit}, {@link
         * #concurrencyLimit(int)} or {@link #concurrencyLimitPerKey(int)}. See docs/FLOW-CONTROL.md.
         *
         * @param starts the most starts of one key per period, 1 to {@value FlowLimits#MAX_CONCURRENCY_LIMIT}
         * @param period the window, 1 ms to 24 h, in whole milliseconds
         * @throws IllegalArgumentException if either is out of range, or the kind has another flow limit
         */
        public Builder<P> rateLimitPerKey(int starts, Duration period) {
            this.rateLimitPerKey = new RateLimit(starts, period);
            requireOneLimit();
            return this;
        }

        /**
         * Takes the limit key of each task of this kind from its payload, at enqueue, instead of from {@code
         * TaskRequest.Builder.limitKey}: a top-level field name such as {@code "customerId"}, or a JSON pointer
         * such as {@code "/customer/id"}. The value must be a string, a number or a boolean (written as its JSON
         * text) of 1 to {@value dev.errand.enqueue.TaskRequest#MAX_LIMIT_KEY_LENGTH} characters. The key is read on
         * the node that enqueues, from the payload as its codec writes it, so it applies where this definition is
         * registered; a key given on the request wins. A payload without the field (or with null there) is refused
         * at enqueue with an {@code IllegalArgumentException}: a task that silently escaped its limit would break
         * the guarantee the limit gives. See docs/FLOW-CONTROL.md.
         *
         * @param field a field name, or a JSON pointer starting with {@code /}
         * @throws IllegalArgumentException if blank, padded with whitespace, longer than 200 characters, or not a
         *     valid JSON pointer
         */
        public Builder<P> limitKeyFrom(String field) {
            String name = dev.errand.config.Names.require("limitKeyFrom of kind '" + kind.name() + "'", field, 200);
            String pointer =
                    name.startsWith("/") ? name : "/" + name.replace("~", "~0").replace("/", "~1");
            try {
                tools.jackson.core.JsonPointer.compile(pointer);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("limitKeyFrom of kind '" + kind.name() + "' is not a field name"
                        + " or a JSON pointer: " + e.getMessage() + "; write \"customerId\" or \"/customer/id\"");
            }
            this.limitKeyFrom = pointer;
            return this;
        }

        private void requireOneLimit() {
            int limits = (concurrencyLimit != null ? 1 : 0)
                    + (concurrencyLimitPerKey != null ? 1 : 0)
                    + (rateLimit != null ? 1 : 0)
                    + (rateLimitPerKey != null ? 1 : 0);
            if (limits > 1) {
                throw new IllegalArgumentException("Kind '" + kind.name() + "' has two of concurrencyLimit,"
                        + " concurrencyLimitPerKey, rateLimit and rateLimitPerKey; a kind has one of them: keep the one"
                        + " that protects what the handler calls");
            }
        }

        /**
         * Runs up to {@code maxTasks} claimed tasks of this transactional kind one after the other in one database
         * transaction, each under a savepoint, with one commit for the group: past the one-commit-per-task limit of
         * transactional throughput. Each task's writes and its completion still commit together or not at all; a
         * task whose handler fails is rolled back to its savepoint alone, and the others commit. A group forms from
         * the tasks one claim returns, so it never waits for more: under a backlog groups fill, and a lone task
         * runs alone.
         *
         * <p>Use it for short handlers that write rows of their own. The group's writes become visible together
         * and its row locks are held until the group commits, so tasks that update the same rows wait on each
         * other across groups, and one long handler delays the commit of the others. If the transaction itself is
         * lost (a dropped connection, a failed commit), every task of the group runs again. See
         * docs/GROUP-COMMIT.md.
         *
         * @param maxTasks the most tasks per transaction, 1 (one transaction per task, the default) to 1,000
         * @throws IllegalArgumentException if outside that range
         */
        public Builder<P> groupCommit(int maxTasks) {
            this.groupCommit = Settings.GROUP_COMMIT.require("groupCommit of kind '" + kind.name() + "'", maxTasks);
            return this;
        }

        /**
         * Builds the definition.
         *
         * @throws IllegalArgumentException if group commit is set on a non-transactional kind
         */
        public TaskDefinition<P> build() {
            if (groupCommit > 1 && mode != ExecutionMode.TRANSACTIONAL) {
                throw new IllegalArgumentException("Kind '" + kind.name() + "' sets groupCommit(" + groupCommit
                        + ") but runs NON_TRANSACTIONAL: group commit shares a transaction between transactional tasks"
                        + " only; remove groupCommit, or make the kind TRANSACTIONAL");
            }
            return new TaskDefinition<>(this);
        }

        private static <T> T requireArgument(T value, String name, String hint) {
            if (value == null) {
                throw new IllegalArgumentException(name + " must not be null: " + hint);
            }
            return value;
        }
    }
}
