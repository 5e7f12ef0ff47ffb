package dev.errand.config;

import dev.errand.retry.RetryPolicy;
import dev.errand.spi.DatabaseClock;
import java.time.Duration;
import java.util.Collection;
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
    private final boolean processingEnabled;
    private final Duration pollInterval;
    private final int claimBatchSize;
    private final int prefetch;
    private final Duration leaseDuration;
    private final Duration heartbeatInterval;
    private final Duration completionFlushInterval;
    private final int completionBatchSize;
    private final Duration rescueInterval;
    private final Duration shutdownTimeout;
    private final Duration succeededRetention;
    private final Duration pruneInterval;
    private final Duration failedRetention;
    private final Duration cancelledRetention;
    private final Duration batchRetention;
    private final Duration prematureEventRetention;
    private final boolean historyEnabled;
    private final boolean processingLogsEnabled;
    private final Duration historyRetention;
    private final int historyStackTraceLimit;
    private final int scheduleFiringPercent;
    private final Duration scheduleLookahead;
    private final Duration unknownKindRetryDelay;
    private final int defaultMaxAttempts;
    private final RetryPolicy defaultRetryPolicy;
    private final TablePrefix tablePrefix;
    private final boolean migrationsEnabled;
    private final DatabaseClock clock;
    private final ClusterSettings cluster;

    private ErrandSettings(Builder builder) {
        this.nodeId = builder.nodeId;
        this.threadNamePrefix = builder.threadNamePrefix;
        this.queues = Map.copyOf(
                builder.queues.isEmpty() ? Map.of(DEFAULT_QUEUE, Settings.CONCURRENCY.defaultValue()) : builder.queues);
        this.processingEnabled = builder.processingEnabled;
        this.pollInterval = builder.pollInterval;
        this.claimBatchSize = builder.claimBatchSize;
        this.prefetch = builder.prefetch;
        this.leaseDuration = builder.leaseDuration;
        this.heartbeatInterval = builder.heartbeatInterval;
        this.completionFlushInterval = builder.completionFlushInterval;
        this.completionBatchSize = builder.completionBatchSize;
        this.rescueInterval = builder.rescueInterval;
        this.shutdownTimeout = builder.shutdownTimeout;
        this.succeededRetention = builder.succeededRetention;
        this.pruneInterval = builder.pruneInterval;
        this.failedRetention = builder.failedRetention;
        this.cancelledRetention = builder.cancelledRetention;
        this.batchRetention = builder.batchRetention;
        this.prematureEventRetention = builder.prematureEventRetention;
        this.historyEnabled = builder.historyEnabled;
        this.processingLogsEnabled = builder.processingLogsEnabled;
        this.historyRetention = builder.historyRetention;
        this.historyStackTraceLimit = builder.historyStackTraceLimit;
        this.scheduleFiringPercent = builder.scheduleFiringPercent;
        this.scheduleLookahead = builder.scheduleLookahead;
        this.unknownKindRetryDelay = builder.unknownKindRetryDelay;
        this.defaultMaxAttempts = builder.defaultMaxAttempts;
        this.defaultRetryPolicy = builder.defaultRetryPolicy;
        this.tablePrefix = builder.tablePrefix;
        this.migrationsEnabled = builder.migrationsEnabled;
        this.clock = builder.clock;
        this.cluster = new ClusterSettings(
                builder.nodeGroups,
                builder.exclusive,
                builder.deadNodeTimeout,
                builder.startupDelay,
                builder.minimumPollInterval);
    }

    /** Starts a set of settings with every default of {@link Settings}. */
    public static Builder builder(String nodeId) {
        return new Builder(nodeId);
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

    /** Whether this node runs tasks, or only enqueues and administers them. */
    public boolean processingEnabled() {
        return processingEnabled;
    }

    /** {@link Settings#POLL_INTERVAL}. */
    public Duration pollInterval() {
        return pollInterval;
    }

    /** {@link Settings#CLAIM_BATCH_SIZE}. */
    public int claimBatchSize() {
        return claimBatchSize;
    }

    /** {@link Settings#PREFETCH}. */
    public int prefetch() {
        return prefetch;
    }

    /** {@link Settings#LEASE_DURATION}. */
    public Duration leaseDuration() {
        return leaseDuration;
    }

    /** {@link Settings#HEARTBEAT_INTERVAL}. */
    public Duration heartbeatInterval() {
        return heartbeatInterval;
    }

    /** {@link Settings#COMPLETION_FLUSH_INTERVAL}. */
    public Duration completionFlushInterval() {
        return completionFlushInterval;
    }

    /** {@link Settings#COMPLETION_BATCH_SIZE}. */
    public int completionBatchSize() {
        return completionBatchSize;
    }

    /** {@link Settings#RESCUE_INTERVAL}. */
    public Duration rescueInterval() {
        return rescueInterval;
    }

    /** {@link Settings#SHUTDOWN_TIMEOUT}. */
    public Duration shutdownTimeout() {
        return shutdownTimeout;
    }

    /** {@link Settings#SUCCEEDED_RETENTION}, or {@code null}: succeeded tasks are deleted at once. */
    public Duration succeededRetention() {
        return succeededRetention;
    }

    /** {@link Settings#PRUNE_INTERVAL}. */
    public Duration pruneInterval() {
        return pruneInterval;
    }

    /** {@link Settings#FAILED_RETENTION}, or {@code null}: failed tasks are kept. */
    public Duration failedRetention() {
        return failedRetention;
    }

    /** {@link Settings#CANCELLED_RETENTION}, or {@code null}: cancelled tasks are kept. */
    public Duration cancelledRetention() {
        return cancelledRetention;
    }

    /** {@link Settings#BATCH_RETENTION}, or {@code null}: finished batches' rows are kept. */
    public Duration batchRetention() {
        return batchRetention;
    }

    /** Whether every ended attempt is recorded in the attempt history. */
    public boolean historyEnabled() {
        return historyEnabled;
    }

    /** Whether attempts keep their processing logs in the attempt history. */
    public boolean processingLogsEnabled() {
        return processingLogsEnabled;
    }

    /** {@link Settings#HISTORY_RETENTION}. */
    public Duration historyRetention() {
        return historyRetention;
    }

    /** {@link Settings#HISTORY_STACK_TRACE_LIMIT}. */
    public int historyStackTraceLimit() {
        return historyStackTraceLimit;
    }

    /** {@link Settings#SCHEDULE_FIRING_PERCENT}. */
    public int scheduleFiringPercent() {
        return scheduleFiringPercent;
    }

    /** {@link Settings#SCHEDULE_LOOKAHEAD}. */
    public Duration scheduleLookahead() {
        return scheduleLookahead;
    }

    /** {@link Settings#PREMATURE_EVENT_RETENTION}, or {@code null}: premature events are kept. */
    public Duration prematureEventRetention() {
        return prematureEventRetention;
    }

    /** {@link Settings#UNKNOWN_KIND_RETRY_DELAY}. */
    public Duration unknownKindRetryDelay() {
        return unknownKindRetryDelay;
    }

    /** {@link Settings#DEFAULT_MAX_ATTEMPTS}. */
    public int defaultMaxAttempts() {
        return defaultMaxAttempts;
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

    /** The node's place in the cluster: groups, exclusive mode, dead-node timeout, start-up delay. */
    public ClusterSettings cluster() {
        return cluster;
    }

    /** Collects settings, checking each against {@link Settings} as it is set. */
    public static final class Builder {
        private String nodeId;
        private String threadNamePrefix = DEFAULT_THREAD_NAME_PREFIX;
        private final Map<String, Integer> queues = new LinkedHashMap<>();
        private boolean processingEnabled = true;
        private Duration pollInterval = Settings.POLL_INTERVAL.defaultValue();
        private int claimBatchSize = Settings.CLAIM_BATCH_SIZE.defaultValue();
        private int prefetch = Settings.PREFETCH.defaultValue();
        private Duration leaseDuration = Settings.LEASE_DURATION.defaultValue();
        private Duration heartbeatInterval = Settings.HEARTBEAT_INTERVAL.defaultValue();
        private Duration completionFlushInterval = Settings.COMPLETION_FLUSH_INTERVAL.defaultValue();
        private int completionBatchSize = Settings.COMPLETION_BATCH_SIZE.defaultValue();
        private Duration rescueInterval = Settings.RESCUE_INTERVAL.defaultValue();
        private Duration shutdownTimeout = Settings.SHUTDOWN_TIMEOUT.defaultValue();
        private Duration succeededRetention = Settings.SUCCEEDED_RETENTION.defaultValue();
        private Duration pruneInterval = Settings.PRUNE_INTERVAL.defaultValue();
        private Duration failedRetention = Settings.FAILED_RETENTION.defaultValue();
        private Duration cancelledRetention = Settings.CANCELLED_RETENTION.defaultValue();
        private Duration batchRetention = Settings.BATCH_RETENTION.defaultValue();
        private Duration prematureEventRetention = Settings.PREMATURE_EVENT_RETENTION.defaultValue();
        // Off by default: it cost 24-36% of burn-down throughput on PostgreSQL (docs/BENCHMARKS.md).
        private boolean historyEnabled = false;
        private boolean processingLogsEnabled = true;
        private Duration historyRetention = Settings.HISTORY_RETENTION.defaultValue();
        private int historyStackTraceLimit = Settings.HISTORY_STACK_TRACE_LIMIT.defaultValue();
        private int scheduleFiringPercent = Settings.SCHEDULE_FIRING_PERCENT.defaultValue();
        private Duration scheduleLookahead = Settings.SCHEDULE_LOOKAHEAD.defaultValue();
        private Duration unknownKindRetryDelay = Settings.UNKNOWN_KIND_RETRY_DELAY.defaultValue();
        private int defaultMaxAttempts = Settings.DEFAULT_MAX_ATTEMPTS.defaultValue();
        private RetryPolicy defaultRetryPolicy = RetryPolicy.exponential(Duration.ofSeconds(1), Duration.ofHours(1));
        private TablePrefix tablePrefix = TablePrefix.DEFAULT;
        private boolean migrationsEnabled = true;
        private DatabaseClock clock = DatabaseClock.database();
        private Set<String> nodeGroups = Set.of();
        private boolean exclusive;
        /** Null until set: the default then follows the heartbeat interval (see {@link #build()}). */
        private Duration deadNodeTimeout;

        private Duration startupDelay = Settings.STARTUP_DELAY.defaultValue();
        private Duration minimumPollInterval = Settings.MINIMUM_POLL_INTERVAL.defaultValue();

        private Builder(String nodeId) {
            nodeId(nodeId);
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

        /** Sets whether this node runs tasks. */
        public Builder processingEnabled(boolean enabled) {
            this.processingEnabled = enabled;
            return this;
        }

        /** {@link Settings#POLL_INTERVAL}. */
        public Builder pollInterval(Duration interval) {
            this.pollInterval = Settings.POLL_INTERVAL.require(interval);
            return this;
        }

        /** {@link Settings#CLAIM_BATCH_SIZE}. */
        public Builder claimBatchSize(int size) {
            this.claimBatchSize = Settings.CLAIM_BATCH_SIZE.require(size);
            return this;
        }

        /** {@link Settings#PREFETCH}. */
        public Builder prefetch(int tasks) {
            this.prefetch = Settings.PREFETCH.require(tasks);
            return this;
        }

        /** {@link Settings#LEASE_DURATION}. */
        public Builder leaseDuration(Duration lease) {
            this.leaseDuration = Settings.LEASE_DURATION.require(lease);
            return this;
        }

        /** {@link Settings#HEARTBEAT_INTERVAL}. */
        public Builder heartbeatInterval(Duration interval) {
            this.heartbeatInterval = Settings.HEARTBEAT_INTERVAL.require(interval);
            return this;
        }

        /** {@link Settings#COMPLETION_FLUSH_INTERVAL}. */
        public Builder completionFlushInterval(Duration interval) {
            this.completionFlushInterval = Settings.COMPLETION_FLUSH_INTERVAL.require(interval);
            return this;
        }

        /** {@link Settings#COMPLETION_BATCH_SIZE}. */
        public Builder completionBatchSize(int size) {
            this.completionBatchSize = Settings.COMPLETION_BATCH_SIZE.require(size);
            return this;
        }

        /** {@link Settings#RESCUE_INTERVAL}. */
        public Builder rescueInterval(Duration interval) {
            this.rescueInterval = Settings.RESCUE_INTERVAL.require(interval);
            return this;
        }

        /** {@link Settings#SHUTDOWN_TIMEOUT}. */
        public Builder shutdownTimeout(Duration timeout) {
            this.shutdownTimeout = Settings.SHUTDOWN_TIMEOUT.require(timeout);
            return this;
        }

        /** {@link Settings#SUCCEEDED_RETENTION}; {@code null} turns retention off. */
        public Builder succeededRetention(Duration retention) {
            this.succeededRetention = retention == null ? null : Settings.SUCCEEDED_RETENTION.require(retention);
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
            this.historyRetention = Settings.HISTORY_RETENTION.require(retention);
            return this;
        }

        /** {@link Settings#HISTORY_STACK_TRACE_LIMIT}. */
        public Builder historyStackTraceLimit(int limit) {
            this.historyStackTraceLimit = Settings.HISTORY_STACK_TRACE_LIMIT.require(limit);
            return this;
        }

        /** {@link Settings#SCHEDULE_FIRING_PERCENT}. */
        public Builder scheduleFiringPercent(int percent) {
            this.scheduleFiringPercent = Settings.SCHEDULE_FIRING_PERCENT.require(percent);
            return this;
        }

        /** {@link Settings#SCHEDULE_LOOKAHEAD}. */
        public Builder scheduleLookahead(Duration lookahead) {
            this.scheduleLookahead = Settings.SCHEDULE_LOOKAHEAD.require(lookahead);
            return this;
        }

        /** {@link Settings#PREMATURE_EVENT_RETENTION}; {@code null} keeps premature events. */
        public Builder prematureEventRetention(Duration retention) {
            this.prematureEventRetention =
                    retention == null ? null : Settings.PREMATURE_EVENT_RETENTION.require(retention);
            return this;
        }

        /** {@link Settings#FAILED_RETENTION}; {@code null} keeps failed tasks. */
        public Builder failedRetention(Duration retention) {
            this.failedRetention = retention == null ? null : Settings.FAILED_RETENTION.require(retention);
            return this;
        }

        /** {@link Settings#CANCELLED_RETENTION}; {@code null} keeps cancelled tasks. */
        public Builder cancelledRetention(Duration retention) {
            this.cancelledRetention = retention == null ? null : Settings.CANCELLED_RETENTION.require(retention);
            return this;
        }

        /** {@link Settings#BATCH_RETENTION}; {@code null} keeps finished batches' rows. */
        public Builder batchRetention(Duration retention) {
            this.batchRetention = retention == null ? null : Settings.BATCH_RETENTION.require(retention);
            return this;
        }

        /** {@link Settings#PRUNE_INTERVAL}. */
        public Builder pruneInterval(Duration interval) {
            this.pruneInterval = Settings.PRUNE_INTERVAL.require(interval);
            return this;
        }

        /** {@link Settings#UNKNOWN_KIND_RETRY_DELAY}. */
        public Builder unknownKindRetryDelay(Duration delay) {
            this.unknownKindRetryDelay = Settings.UNKNOWN_KIND_RETRY_DELAY.require(delay);
            return this;
        }

        /** {@link Settings#DEFAULT_MAX_ATTEMPTS}. */
        public Builder defaultMaxAttempts(int maxAttempts) {
            this.defaultMaxAttempts = Settings.DEFAULT_MAX_ATTEMPTS.require(maxAttempts);
            return this;
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
            this.deadNodeTimeout = Settings.DEAD_NODE_TIMEOUT.require(timeout);
            return this;
        }

        /** {@link Settings#STARTUP_DELAY}. */
        public Builder startupDelay(Duration delay) {
            this.startupDelay = Settings.STARTUP_DELAY.require(delay);
            return this;
        }

        /** {@link Settings#MINIMUM_POLL_INTERVAL}. */
        public Builder minimumPollInterval(Duration interval) {
            this.minimumPollInterval = Settings.MINIMUM_POLL_INTERVAL.require(interval);
            return this;
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
            requireLeaseCoversHeartbeats("leaseDuration", leaseDuration);
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
            if (exclusive && !processingEnabled) {
                throw new IllegalArgumentException("exclusive and processingEnabled=false conflict: an exclusive"
                        + " node claims only its own tasks, a node with processing disabled claims none;"
                        + " set one of them");
            }
            if (minimumPollInterval.compareTo(pollInterval) > 0) {
                throw new IllegalArgumentException("minimumPollInterval (" + Setting.text(minimumPollInterval)
                        + ") must not exceed pollInterval (" + Setting.text(pollInterval) + ")");
            }
            return new ErrandSettings(this);
        }

        /**
         * Checks that a lease outlives two heartbeats, or one slow heartbeat would let rescue take a
         * healthy task.
         *
         * @throws IllegalArgumentException naming {@code label} otherwise
         */
        public void requireLeaseCoversHeartbeats(String label, Duration lease) {
            if (lease.compareTo(heartbeatInterval.multipliedBy(2)) < 0) {
                throw new IllegalArgumentException(label + " (" + Setting.text(lease)
                        + ") must be at least twice heartbeatInterval (" + Setting.text(heartbeatInterval)
                        + "), or a slow heartbeat would let healthy tasks be rescued");
            }
        }
    }
}
