package dev.errand.config;

import dev.errand.retry.RetryPolicy;
import dev.errand.spi.DatabaseClock;
import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The validated, immutable settings of one Errand node, as {@code ErrandBuilder} collected them. Each
 * value was checked against its entry in {@link Settings} when it was set.
 */
public final class ErrandSettings {

    /** The queue a request goes to when it names none. */
    public static final String DEFAULT_QUEUE = "default";

    /** The default prefix of the names of a node's threads. */
    public static final String DEFAULT_THREAD_NAME_PREFIX = "errand-";

    private final String nodeId;
    private final String threadNamePrefix;
    private final Map<String, Integer> queues;
    private final Map<String, Integer> queueConcurrencyLimits;
    private final Map<String, dev.errand.flow.RateLimit> queueRateLimits;
    private final boolean processingEnabled;
    private final boolean virtualThreads;
    /** The value of every node setting of {@link Settings}; {@code null} where unset is the setting's default. */
    private final Map<Setting<?>, Object> table;

    private final boolean historyEnabled;
    private final ClaimOrder claimOrder;
    private final boolean processingLogsEnabled;
    private final RetryPolicy defaultRetryPolicy;
    private final TablePrefix tablePrefix;
    private final boolean migrationsEnabled;
    private final DatabaseClock clock;
    private final ClusterSettings cluster;

    private ErrandSettings(Builder builder, Duration deadNodeTimeout) {
        this.nodeId = builder.nodeId;
        this.threadNamePrefix = builder.threadNamePrefix;
        this.queues = Map.copyOf(
                builder.queues.isEmpty() ? Map.of(DEFAULT_QUEUE, Settings.CONCURRENCY.defaultValue()) : builder.queues);
        this.queueConcurrencyLimits = Map.copyOf(builder.queueConcurrencyLimits);
        this.queueRateLimits = Map.copyOf(builder.queueRateLimits);
        this.processingEnabled = builder.processingEnabled;
        this.virtualThreads = builder.virtualThreads;
        Map<Setting<?>, Object> values = new HashMap<>(builder.table);
        values.put(Settings.DEAD_NODE_TIMEOUT, deadNodeTimeout);
        this.table = Collections.unmodifiableMap(values);
        this.historyEnabled = builder.historyEnabled;
        this.claimOrder = builder.claimOrder;
        this.processingLogsEnabled = builder.processingLogsEnabled;
        this.defaultRetryPolicy = builder.defaultRetryPolicy;
        this.tablePrefix = builder.tablePrefix;
        this.migrationsEnabled = builder.migrationsEnabled;
        this.clock = builder.clock;
        this.cluster = new ClusterSettings(
                builder.nodeGroups,
                builder.exclusive,
                deadNodeTimeout,
                value(table, Settings.STARTUP_DELAY),
                value(table, Settings.MINIMUM_POLL_INTERVAL));
    }

    /** A setting's value in a table that only {@link Builder#set} fills, so the cast always holds. */
    private static <T extends Comparable<? super T>> T value(Map<Setting<?>, Object> table, Setting<T> setting) {
        return setting.type().cast(table.get(setting));
    }

    /** Starts a set of settings with every default of {@link Settings}. */
    public static Builder builder(String nodeId) {
        return new Builder(nodeId);
    }

    /**
     * The value of any node setting of the table, one of {@link Settings#nodeSettings()}; the same as the accessor of
     * the same name, such as {@link #pollInterval()}.
     *
     * @return the value, or {@code null} where unset is the setting's default (such as a retention that is off)
     * @throws IllegalArgumentException if the setting is not one of the node settings
     */
    public <T extends Comparable<? super T>> T get(Setting<T> setting) {
        if (setting == null || !table.containsKey(setting)) {
            throw new IllegalArgumentException((setting == null ? "null" : setting.name())
                    + " is not a node setting; pass one of Settings.nodeSettings()");
        }
        return value(table, setting);
    }

    /** This node's id, stored as {@code lease_owner} on the tasks it claims. */
    public String nodeId() {
        return nodeId;
    }

    /** The prefix of the names of this node's threads, such as {@code errand-} in {@code errand-mail-worker-1}. */
    public String threadNamePrefix() {
        return threadNamePrefix;
    }

    /** The queues this node serves, with how many of their tasks it runs at once. */
    public Map<String, Integer> queues() {
        return queues;
    }

    /**
     * The cluster-wide concurrency limit of each queue that declares one: at most this many of the queue's tasks
     * run at once across every node. See docs/FLOW-CONTROL.md.
     */
    public Map<String, Integer> queueConcurrencyLimits() {
        return queueConcurrencyLimits;
    }

    /**
     * The cluster-wide rate limit of each queue that declares one: at most this many of the queue's tasks start in
     * any window of the period across every node. See docs/FLOW-CONTROL.md.
     */
    public Map<String, dev.errand.flow.RateLimit> queueRateLimits() {
        return queueRateLimits;
    }

    /** Whether this node runs tasks, or only enqueues and administers them. */
    public boolean processingEnabled() {
        return processingEnabled;
    }

    /** Whether handlers run on virtual threads (Java 21 and later); off by default. */
    public boolean virtualThreads() {
        return virtualThreads;
    }

    /** {@link Settings#POLL_INTERVAL}. */
    public Duration pollInterval() {
        return value(table, Settings.POLL_INTERVAL);
    }

    /** {@link Settings#CLAIM_BATCH_SIZE}. */
    public int claimBatchSize() {
        return value(table, Settings.CLAIM_BATCH_SIZE);
    }

    /** {@link Settings#PREFETCH}. */
    public int prefetch() {
        return value(table, Settings.PREFETCH);
    }

    /** {@link Settings#LEASE_DURATION}. */
    public Duration leaseDuration() {
        return value(table, Settings.LEASE_DURATION);
    }

    /** {@link Settings#HEARTBEAT_INTERVAL}. */
    public Duration heartbeatInterval() {
        return value(table, Settings.HEARTBEAT_INTERVAL);
    }

    /** {@link Settings#COMPLETION_FLUSH_INTERVAL}. */
    public Duration completionFlushInterval() {
        return value(table, Settings.COMPLETION_FLUSH_INTERVAL);
    }

    /** {@link Settings#COMPLETION_BATCH_SIZE}. */
    public int completionBatchSize() {
        return value(table, Settings.COMPLETION_BATCH_SIZE);
    }

    /** {@link Settings#RESCUE_INTERVAL}. */
    public Duration rescueInterval() {
        return value(table, Settings.RESCUE_INTERVAL);
    }

    /** {@link Settings#SHUTDOWN_TIMEOUT}. */
    public Duration shutdownTimeout() {
        return value(table, Settings.SHUTDOWN_TIMEOUT);
    }

    /** {@link Settings#SUCCEEDED_RETENTION}, or {@code null}: succeeded tasks are deleted at once. */
    public Duration succeededRetention() {
        return value(table, Settings.SUCCEEDED_RETENTION);
    }

    /** {@link Settings#PRUNE_INTERVAL}. */
    public Duration pruneInterval() {
        return value(table, Settings.PRUNE_INTERVAL);
    }

    /** {@link Settings#FAILED_RETENTION}, or {@code null}: failed tasks are kept. */
    public Duration failedRetention() {
        return value(table, Settings.FAILED_RETENTION);
    }

    /** {@link Settings#CANCELLED_RETENTION}, or {@code null}: cancelled tasks are kept. */
    public Duration cancelledRetention() {
        return value(table, Settings.CANCELLED_RETENTION);
    }

    /** {@link Settings#BATCH_RETENTION}, or {@code null}: finished batches' rows are kept. */
    public Duration batchRetention() {
        return value(table, Settings.BATCH_RETENTION);
    }

    /** Whether every ended attempt is recorded in the attempt history. */
    public boolean historyEnabled() {
        return historyEnabled;
    }

    /** The order in which this node claims due tasks (default {@link ClaimOrder#DUE_FIRST}). */
    public ClaimOrder claimOrder() {
        return claimOrder;
    }

    /** Whether attempts keep their processing logs in the attempt history. */
    public boolean processingLogsEnabled() {
        return processingLogsEnabled;
    }

    /** {@link Settings#HISTORY_RETENTION}. */
    public Duration historyRetention() {
        return value(table, Settings.HISTORY_RETENTION);
    }

    /** {@link Settings#HISTORY_STACK_TRACE_LIMIT}. */
    public int historyStackTraceLimit() {
        return value(table, Settings.HISTORY_STACK_TRACE_LIMIT);
    }

    /** {@link Settings#SCHEDULE_FIRING_PERCENT}. */
    public int scheduleFiringPercent() {
        return value(table, Settings.SCHEDULE_FIRING_PERCENT);
    }

    /** {@link Settings#SCHEDULE_LOOKAHEAD}. */
    public Duration scheduleLookahead() {
        return value(table, Settings.SCHEDULE_LOOKAHEAD);
    }

    /** {@link Settings#PREMATURE_EVENT_RETENTION}, or {@code null}: premature events are kept. */
    public Duration prematureEventRetention() {
        return value(table, Settings.PREMATURE_EVENT_RETENTION);
    }

    /** {@link Settings#UNKNOWN_KIND_RETRY_DELAY}. */
    public Duration unknownKindRetryDelay() {
        return value(table, Settings.UNKNOWN_KIND_RETRY_DELAY);
    }

    /** {@link Settings#DEFAULT_MAX_ATTEMPTS}. */
    public int defaultMaxAttempts() {
        return value(table, Settings.DEFAULT_MAX_ATTEMPTS);
    }

    /** The retry policy of kinds that set none. */
    public RetryPolicy defaultRetryPolicy() {
        return defaultRetryPolicy;
    }

    /** The prefix of Errand's table names. */
    public TablePrefix tablePrefix() {
        return tablePrefix;
    }

    /** Whether Errand applies its own migrations at start-up. */
    public boolean migrationsEnabled() {
        return migrationsEnabled;
    }

    /** The clock every statement reads. */
    public DatabaseClock clock() {
        return clock;
    }

    /** {@link Settings#LEADER_LEASE}. */
    public Duration leaderLease() {
        return value(table, Settings.LEADER_LEASE);
    }

    /** {@link Settings#NODE_RETENTION}. */
    public Duration nodeRetention() {
        return value(table, Settings.NODE_RETENTION);
    }

    /** The node's place in the cluster: groups, exclusive mode, dead-node timeout, start-up delay. */
    public ClusterSettings cluster() {
        return cluster;
    }

    /** Collects settings, checking each against {@link Settings} as it is set. */
    public static final class Builder {
        private String nodeId;
        private String threadNamePrefix = DEFAULT_THREAD_NAME_PREFIX;
        private final Map<String, Integer> queues = new LinkedHashMap<>();
        private final Map<String, Integer> queueConcurrencyLimits = new LinkedHashMap<>();
        private final Map<String, dev.errand.flow.RateLimit> queueRateLimits = new LinkedHashMap<>();
        private boolean processingEnabled = true;
        private boolean virtualThreads;
        /** Every node setting of {@link Settings}, at its default until set (the dead-node timeout: see build). */
        private final Map<Setting<?>, Object> table = new HashMap<>();
        // Off by default: it costs 16-18% of burn-down throughput on PostgreSQL (docs/HISTORY.md).
        private boolean historyEnabled = false;
        private ClaimOrder claimOrder = ClaimOrder.DUE_FIRST;
        private boolean processingLogsEnabled = true;
        private RetryPolicy defaultRetryPolicy = RetryPolicy.exponential(Duration.ofSeconds(1), Duration.ofHours(1));
        private TablePrefix tablePrefix = TablePrefix.DEFAULT;
        private boolean migrationsEnabled = true;
        private DatabaseClock clock = DatabaseClock.database();
        private Set<String> nodeGroups = Set.of();
        private boolean exclusive;

        private Builder(String nodeId) {
            nodeId(nodeId);
            for (Setting<?> setting : Settings.nodeSettings()) {
                // Unset, the dead-node timeout follows the heartbeat interval: build() fills it in.
                if (setting != Settings.DEAD_NODE_TIMEOUT) {
                    table.put(setting, setting.defaultValue());
                }
            }
        }

        /**
         * Sets one node setting of {@link Settings}, with the checks of the setter of the same name: the value
         * must lie in the setting's range, and may be {@code null} only where unset is the setting's default
         * (such as a retention that is off).
         *
         * @throws IllegalArgumentException naming the setting and its range, or saying that it is not set per node
         */
        public <T extends Comparable<? super T>> Builder set(Setting<T> setting, T value) {
            if (setting == null || !Settings.nodeSettings().contains(setting)) {
                throw new IllegalArgumentException((setting == null ? "null" : setting.name())
                        + " is not a node setting; pass one of Settings.nodeSettings(). Per queue, kind or request"
                        + " settings are set on ErrandBuilder.queue, TaskDefinition.Builder or TaskRequest.Builder");
            }
            table.put(setting, value == null && setting.defaultValue() == null ? null : setting.require(value));
            return this;
        }

        /** Sets the node id: 1 to 200 characters, no control characters, not blank. */
        public Builder nodeId(String nodeId) {
            this.nodeId = Names.require("nodeId", nodeId, 200);
            return this;
        }

        /**
         * Sets the prefix of the names of this node's threads (default {@code errand-}): 1 to 40 characters,
         * no control characters. Threads are named {@code <prefix><queue>-worker-<n>},
         * {@code <prefix><queue>-poller}, {@code <prefix>completer}, {@code <prefix>heartbeat},
         * {@code <prefix>maintenance} and {@code <prefix>listener}.
         */
        public Builder threadNamePrefix(String prefix) {
            this.threadNamePrefix = Names.require("threadNamePrefix", prefix, 40);
            return this;
        }

        /** Declares a queue: a name of 1 to 100 characters and a {@link Settings#CONCURRENCY}. */
        public Builder queue(String name, int concurrency) {
            Names.require("Queue name", name, 100);
            queues.put(name, Settings.CONCURRENCY.require("concurrency of queue '" + name + "'", concurrency));
            return this;
        }

        /**
         * Limits how many tasks of a queue run at once across the whole cluster (the queue's concurrency is per
         * node). The queue must be declared with {@link #queue} by {@link #build()}.
         *
         * @param name the queue
         * @param maxRunning the most of its tasks running at once, 1 to 10,000
         * @throws IllegalArgumentException if the name is invalid or the limit out of range
         */
        public Builder queueConcurrencyLimit(String name, int maxRunning) {
            Names.require("Queue name", name, 100);
            queueConcurrencyLimits.put(
                    name,
                    dev.errand.flow.FlowLimits.requireConcurrencyLimit(
                            maxRunning, "The concurrency limit of queue '" + name + "'"));
            return this;
        }

        /**
         * Limits how many tasks of a queue start in any window of {@code limit.period()} across the whole cluster,
         * on the database clock. The queue must be declared with {@link #queue} by {@link #build()}.
         *
         * @param name the queue
         * @param limit the most starts per period
         * @throws IllegalArgumentException if the name is invalid or the limit null
         */
        public Builder queueRateLimit(String name, dev.errand.flow.RateLimit limit) {
            Names.require("Queue name", name, 100);
            if (limit == null) {
                throw new IllegalArgumentException("The rate limit of queue '" + name + "' must not be null: pass"
                        + " new RateLimit(starts, period), for example new RateLimit(100, Duration.ofMinutes(1))");
            }
            queueRateLimits.put(name, limit);
            return this;
        }

        /** Sets whether this node runs tasks. */
        public Builder processingEnabled(boolean enabled) {
            this.processingEnabled = enabled;
            return this;
        }

        /**
         * Sets whether handlers run on virtual threads (default off). A queue's concurrency still bounds how many of
         * its tasks run at once; pollers, the completer and the node's other threads stay platform threads. Needs
         * Java 21 or later: {@link #build()} refuses it on an older JVM.
         */
        public Builder virtualThreads(boolean enabled) {
            this.virtualThreads = enabled;
            return this;
        }

        /** {@link Settings#POLL_INTERVAL}. */
        public Builder pollInterval(Duration interval) {
            return set(Settings.POLL_INTERVAL, interval);
        }

        /** {@link Settings#CLAIM_BATCH_SIZE}. */
        public Builder claimBatchSize(int size) {
            return set(Settings.CLAIM_BATCH_SIZE, size);
        }

        /** {@link Settings#PREFETCH}. */
        public Builder prefetch(int tasks) {
            return set(Settings.PREFETCH, tasks);
        }

        /** {@link Settings#LEASE_DURATION}. */
        public Builder leaseDuration(Duration lease) {
            return set(Settings.LEASE_DURATION, lease);
        }

        /** {@link Settings#HEARTBEAT_INTERVAL}. */
        public Builder heartbeatInterval(Duration interval) {
            return set(Settings.HEARTBEAT_INTERVAL, interval);
        }

        /** {@link Settings#COMPLETION_FLUSH_INTERVAL}. */
        public Builder completionFlushInterval(Duration interval) {
            return set(Settings.COMPLETION_FLUSH_INTERVAL, interval);
        }

        /** {@link Settings#COMPLETION_BATCH_SIZE}. */
        public Builder completionBatchSize(int size) {
            return set(Settings.COMPLETION_BATCH_SIZE, size);
        }

        /** {@link Settings#RESCUE_INTERVAL}. */
        public Builder rescueInterval(Duration interval) {
            return set(Settings.RESCUE_INTERVAL, interval);
        }

        /** {@link Settings#SHUTDOWN_TIMEOUT}. */
        public Builder shutdownTimeout(Duration timeout) {
            return set(Settings.SHUTDOWN_TIMEOUT, timeout);
        }

        /** {@link Settings#SUCCEEDED_RETENTION}; {@code null} turns retention off. */
        public Builder succeededRetention(Duration retention) {
            return set(Settings.SUCCEEDED_RETENTION, retention);
        }

        /**
         * Sets the order in which this node claims due tasks (default {@link ClaimOrder#DUE_FIRST}).
         *
         * @throws IllegalArgumentException if {@code order} is null
         */
        public Builder claimOrder(ClaimOrder order) {
            if (order == null) {
                throw new IllegalArgumentException(
                        "claimOrder must not be null: use ClaimOrder.DUE_FIRST (the default) or"
                                + " ClaimOrder.FEWEST_ATTEMPTS_FIRST");
            }
            this.claimOrder = order;
            return this;
        }

        /** Whether every ended attempt is recorded in the attempt history (default false). */
        public Builder historyEnabled(boolean enabled) {
            this.historyEnabled = enabled;
            return this;
        }

        /** Whether attempts keep their processing logs (default true). */
        public Builder processingLogsEnabled(boolean enabled) {
            this.processingLogsEnabled = enabled;
            return this;
        }

        /** {@link Settings#HISTORY_RETENTION}. */
        public Builder historyRetention(Duration retention) {
            return set(Settings.HISTORY_RETENTION, retention);
        }

        /** {@link Settings#HISTORY_STACK_TRACE_LIMIT}. */
        public Builder historyStackTraceLimit(int limit) {
            return set(Settings.HISTORY_STACK_TRACE_LIMIT, limit);
        }

        /** {@link Settings#SCHEDULE_FIRING_PERCENT}. */
        public Builder scheduleFiringPercent(int percent) {
            return set(Settings.SCHEDULE_FIRING_PERCENT, percent);
        }

        /** {@link Settings#SCHEDULE_LOOKAHEAD}. */
        public Builder scheduleLookahead(Duration lookahead) {
            return set(Settings.SCHEDULE_LOOKAHEAD, lookahead);
        }

        /** {@link Settings#PREMATURE_EVENT_RETENTION}; {@code null} keeps premature events. */
        public Builder prematureEventRetention(Duration retention) {
            return set(Settings.PREMATURE_EVENT_RETENTION, retention);
        }

        /** {@link Settings#FAILED_RETENTION}; {@code null} keeps failed tasks. */
        public Builder failedRetention(Duration retention) {
            return set(Settings.FAILED_RETENTION, retention);
        }

        /** {@link Settings#CANCELLED_RETENTION}; {@code null} keeps cancelled tasks. */
        public Builder cancelledRetention(Duration retention) {
            return set(Settings.CANCELLED_RETENTION, retention);
        }

        /** {@link Settings#BATCH_RETENTION}; {@code null} keeps finished batches' rows. */
        public Builder batchRetention(Duration retention) {
            return set(Settings.BATCH_RETENTION, retention);
        }

        /** {@link Settings#PRUNE_INTERVAL}. */
        public Builder pruneInterval(Duration interval) {
            return set(Settings.PRUNE_INTERVAL, interval);
        }

        /** {@link Settings#UNKNOWN_KIND_RETRY_DELAY}. */
        public Builder unknownKindRetryDelay(Duration delay) {
            return set(Settings.UNKNOWN_KIND_RETRY_DELAY, delay);
        }

        /** {@link Settings#DEFAULT_MAX_ATTEMPTS}. */
        public Builder defaultMaxAttempts(int maxAttempts) {
            return set(Settings.DEFAULT_MAX_ATTEMPTS, maxAttempts);
        }

        /** Sets the retry policy of kinds that set none. */
        public Builder defaultRetryPolicy(RetryPolicy policy) {
            if (policy == null) {
                throw new IllegalArgumentException(
                        "defaultRetryPolicy must not be null: use RetryPolicy.fixed," + " exponential or delays");
            }
            this.defaultRetryPolicy = policy;
            return this;
        }

        /** Sets the table prefix. */
        public Builder tablePrefix(TablePrefix prefix) {
            if (prefix == null) {
                throw new IllegalArgumentException("tablePrefix must not be null: use TablePrefix.DEFAULT");
            }
            this.tablePrefix = prefix;
            return this;
        }

        /**
         * Sets the node groups this node serves; tasks pinned to one of them may run here. Each name is 1 to
         * 200 characters without commas or control characters.
         */
        public Builder nodeGroups(Collection<String> groups) {
            this.nodeGroups = ClusterSettings.requireGroups(groups);
            return this;
        }

        /** Sets whether this node claims only tasks pinned to it or to its groups (default false). */
        public Builder exclusive(boolean exclusive) {
            this.exclusive = exclusive;
            return this;
        }

        /** {@link Settings#DEAD_NODE_TIMEOUT}. */
        public Builder deadNodeTimeout(Duration timeout) {
            return set(Settings.DEAD_NODE_TIMEOUT, timeout);
        }

        /** {@link Settings#LEADER_LEASE}. */
        public Builder leaderLease(Duration lease) {
            return set(Settings.LEADER_LEASE, lease);
        }

        /** {@link Settings#NODE_RETENTION}. */
        public Builder nodeRetention(Duration retention) {
            return set(Settings.NODE_RETENTION, retention);
        }

        /** {@link Settings#STARTUP_DELAY}. */
        public Builder startupDelay(Duration delay) {
            return set(Settings.STARTUP_DELAY, delay);
        }

        /** {@link Settings#MINIMUM_POLL_INTERVAL}. */
        public Builder minimumPollInterval(Duration interval) {
            return set(Settings.MINIMUM_POLL_INTERVAL, interval);
        }

        /** Sets whether Errand applies its own migrations. */
        public Builder migrationsEnabled(boolean enabled) {
            this.migrationsEnabled = enabled;
            return this;
        }

        /** Sets the clock. */
        public Builder clock(DatabaseClock clock) {
            if (clock == null) {
                throw new IllegalArgumentException("clock must not be null: use DatabaseClock.database()");
            }
            this.clock = clock;
            return this;
        }

        /**
         * Builds the settings.
         *
         * @throws IllegalArgumentException if the lease is shorter than two heartbeats
         */
        public ErrandSettings build() {
            Set<String> limited = new java.util.LinkedHashSet<>(queueConcurrencyLimits.keySet());
            limited.addAll(queueRateLimits.keySet());
            for (String queue : limited) {
                if (!(queues.isEmpty() ? Set.of(DEFAULT_QUEUE) : queues.keySet()).contains(queue)) {
                    throw new IllegalArgumentException("Queue '" + queue + "' has a "
                            + (queueConcurrencyLimits.containsKey(queue) ? "concurrency" : "rate") + " limit but is not"
                            + " declared on this node; declare it with queue(\"" + queue + "\", concurrency), or"
                            + " check the name. Declared queues: "
                            + (queues.isEmpty() ? Set.of(DEFAULT_QUEUE) : queues.keySet()));
                }
            }
            Duration heartbeatInterval = value(table, Settings.HEARTBEAT_INTERVAL);
            requireLeaseCoversHeartbeats("leaseDuration", value(table, Settings.LEASE_DURATION));
            Duration deadNodeTimeout = value(table, Settings.DEAD_NODE_TIMEOUT);
            if (deadNodeTimeout == null) {
                // Three heartbeats, and never less than the default: slow heartbeats must not look like death.
                Duration threeBeats = heartbeatInterval.multipliedBy(3);
                Duration fallback = Settings.DEAD_NODE_TIMEOUT.defaultValue();
                deadNodeTimeout = threeBeats.compareTo(fallback) > 0 ? threeBeats : fallback;
            } else if (deadNodeTimeout.compareTo(heartbeatInterval.multipliedBy(2)) < 0) {
                throw new IllegalArgumentException("deadNodeTimeout (" + Setting.text(deadNodeTimeout)
                        + ") must be at least twice heartbeatInterval (" + Setting.text(heartbeatInterval)
                        + "), or one slow heartbeat would declare a live node dead");
            }
            if (virtualThreads && Runtime.version().feature() < 21) {
                throw new IllegalArgumentException("virtualThreads(true) needs Java 21 or later, and this JVM is Java "
                        + Runtime.version().feature() + "; run on Java 21+ or leave virtual threads off");
            }
            if (exclusive && !processingEnabled) {
                throw new IllegalArgumentException("exclusive and processingEnabled=false conflict: an exclusive"
                        + " node claims only its own tasks, a node with processing disabled claims none;"
                        + " set one of them");
            }
            Duration minimumPollInterval = value(table, Settings.MINIMUM_POLL_INTERVAL);
            Duration pollInterval = value(table, Settings.POLL_INTERVAL);
            if (minimumPollInterval.compareTo(pollInterval) > 0) {
                throw new IllegalArgumentException("minimumPollInterval (" + Setting.text(minimumPollInterval)
                        + ") must not exceed pollInterval (" + Setting.text(pollInterval) + ")");
            }
            return new ErrandSettings(this, deadNodeTimeout);
        }

        /**
         * Checks that a lease outlives two heartbeats, or one slow heartbeat would let rescue take a
         * healthy task.
         *
         * @throws IllegalArgumentException naming {@code label} otherwise
         */
        public void requireLeaseCoversHeartbeats(String label, Duration lease) {
            Duration heartbeatInterval = value(table, Settings.HEARTBEAT_INTERVAL);
            if (lease.compareTo(heartbeatInterval.multipliedBy(2)) < 0) {
                throw new IllegalArgumentException(label + " (" + Setting.text(lease)
                        + ") must be at least twice heartbeatInterval (" + Setting.text(heartbeatInterval)
                        + "), or a slow heartbeat would let healthy tasks be rescued");
            }
        }
    }
}
