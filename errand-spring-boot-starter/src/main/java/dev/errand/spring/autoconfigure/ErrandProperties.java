package dev.errand.spring.autoconfigure;

import dev.errand.ErrandBuilder;
import dev.errand.claim.ClaimStrategies;
import dev.errand.store.Dialects;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * The {@code errand.*} properties. Each maps to the {@link ErrandBuilder} setting of the same name and has
 * the same default and range. Out-of-range values stop start-up; the message names the property and its
 * allowed range. The class validates itself ({@link Validator}), so no Bean Validation provider is needed.
 */
@ConfigurationProperties("errand")
public class ErrandProperties implements Validator {

    // The ranges of ErrandBuilder, restated so that messages can name the property; ErrandPropertiesRangeTest
    // checks them against the builder so that they cannot drift apart.
    static final Duration POLL_INTERVAL_MIN = Duration.ofMillis(10);
    static final Duration POLL_INTERVAL_MAX = Duration.ofHours(1);
    static final Duration LEASE_MIN = Duration.ofSeconds(1);
    static final Duration LEASE_MAX = Duration.ofHours(24);
    static final Duration HEARTBEAT_MIN = Duration.ofMillis(100);
    static final Duration HEARTBEAT_MAX = Duration.ofHours(1);
    static final Duration FLUSH_MIN = Duration.ofMillis(1);
    static final Duration FLUSH_MAX = Duration.ofSeconds(10);
    static final Duration RESCUE_MIN = Duration.ofMillis(100);
    static final Duration RESCUE_MAX = Duration.ofHours(1);
    static final Duration SHUTDOWN_MIN = Duration.ZERO;
    static final Duration SHUTDOWN_MAX = Duration.ofHours(1);
    static final Duration RETENTION_MIN = Duration.ofSeconds(1);
    static final Duration RETENTION_MAX = Duration.ofDays(3650);
    static final Duration PRUNE_MIN = Duration.ofSeconds(1);
    static final Duration PRUNE_MAX = Duration.ofHours(24);
    static final Duration UNKNOWN_KIND_MIN = Duration.ZERO;
    static final Duration UNKNOWN_KIND_MAX = Duration.ofHours(24);
    static final int CLAIM_BATCH_MAX = 10_000;
    static final int COMPLETION_BATCH_MAX = 10_000;
    static final int CONCURRENCY_MAX = 1000;
    static final int ATTEMPTS_MAX = 1000;
    static final Duration STATS_CACHE_MAX = Duration.ofHours(1);
    static final Duration OVERDUE_MIN = Duration.ofSeconds(1);
    static final Duration OVERDUE_MAX = Duration.ofDays(30);
    private static final Pattern TABLE_PREFIX = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,39}");

    /** Whether to auto-configure Errand. */
    private boolean enabled = true;

    /**
     * This node's id, stored as lease_owner on the tasks it claims: 1 to 200 characters, unique per running
     * node. Default: host name, process id and 8 random characters.
     */
    private String nodeId;

    /** Whether this node runs tasks. With false it only enqueues and administers tasks, and starts no thread. */
    private boolean processingEnabled = true;

    /**
     * Queues this node serves, with their concurrency. Enqueueing accepts only declared queues. When none is
     * declared, the node has one queue "default" with concurrency 4; declare "default" too if you declare
     * others and requests use it.
     */
    private Map<String, Queue> queues = new LinkedHashMap<>();

    /** The longest a poller sleeps without a wake-up: 10ms to 1h. */
    private Duration pollInterval = Duration.ofMillis(500);

    /** The most tasks one claim statement takes: 1 to 10000. */
    private int claimBatchSize = 100;

    /** The lease set by every claim and the default lease of non-transactional kinds: 1s to 24h, and at least twice the heartbeat interval. */
    private Duration leaseDuration = Duration.ofSeconds(60);

    /** How often the node extends the leases it holds: 100ms to 1h. */
    private Duration heartbeatInterval = Duration.ofSeconds(10);

    /** How long completions of non-transactional tasks are gathered into one statement: 1ms to 10s. */
    private Duration completionFlushInterval = Duration.ofMillis(5);

    /** The most completions in one statement: 1 to 10000. */
    private int completionBatchSize = 500;

    /** How often the node looks for tasks whose lease expired: 100ms to 1h. */
    private Duration rescueInterval = Duration.ofSeconds(15);

    /** How long shutdown waits for running tasks: 0 to 1h. Keep it below the platform's termination grace period. */
    private Duration shutdownTimeout = Duration.ofSeconds(30);

    /**
     * How long succeeded tasks are kept as 'succeeded' rows before they are pruned: 1s to 3650d. Unset
     * (the default): a succeeded task's row is deleted when it completes.
     */
    private Duration succeededRetention;

    /** How often succeeded tasks past their retention are deleted: 1s to 24h. Used only with a retention. */
    private Duration pruneInterval = Duration.ofMinutes(5);

    /** The delay before another attempt of a task whose kind this node does not know: 0 to 24h. */
    private Duration unknownKindRetryDelay = Duration.ofMinutes(1);

    /** The most attempts for tasks whose kind and request set none: 1 to 1000. */
    private int defaultMaxAttempts = 5;

    /**
     * The prefix of Errand's table names and PostgreSQL channel: a letter or '_', then letters, digits or
     * '_', at most 40 characters.
     */
    private String tablePrefix = "errand_";

    /** Whether Errand applies its own schema migrations (with Flyway, in a history table of its own) at start-up. */
    private boolean migrationsEnabled = true;

    /**
     * How pollers claim tasks: skip-locked (FOR UPDATE SKIP LOCKED, the default) or optimistic-version (for
     * databases or proxies without SKIP LOCKED).
     */
    private ClaimStrategy claimStrategy = ClaimStrategy.SKIP_LOCKED;

    /**
     * The database dialect, instead of detecting it from JDBC metadata: postgresql, mariadb, mysql or h2.
     * Unset: detected.
     */
    private String dialect;

    private final Stats stats = new Stats();

    private final TaskExecutor taskExecutor = new TaskExecutor();

    /** Whether to auto-configure Errand. */
    public boolean isEnabled() {
        return enabled;
    }

    /** Sets whether to auto-configure Errand. */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /** This node's id, or {@code null} for the generated default. */
    public String getNodeId() {
        return nodeId;
    }

    /** Sets this node's id. */
    public void setNodeId(String nodeId) {
        this.nodeId = nodeId;
    }

    /** Whether this node runs tasks. */
    public boolean isProcessingEnabled() {
        return processingEnabled;
    }

    /** Sets whether this node runs tasks. */
    public void setProcessingEnabled(boolean processingEnabled) {
        this.processingEnabled = processingEnabled;
    }

    /** The declared queues by name. */
    public Map<String, Queue> getQueues() {
        return queues;
    }

    /** Sets the declared queues. */
    public void setQueues(Map<String, Queue> queues) {
        this.queues = queues;
    }

    /** The longest a poller sleeps without a wake-up. */
    public Duration getPollInterval() {
        return pollInterval;
    }

    /** Sets the longest a poller sleeps without a wake-up. */
    public void setPollInterval(Duration pollInterval) {
        this.pollInterval = pollInterval;
    }

    /** The most tasks one claim statement takes. */
    public int getClaimBatchSize() {
        return claimBatchSize;
    }

    /** Sets the most tasks one claim statement takes. */
    public void setClaimBatchSize(int claimBatchSize) {
        this.claimBatchSize = claimBatchSize;
    }

    /** The default lease. */
    public Duration getLeaseDuration() {
        return leaseDuration;
    }

    /** Sets the default lease. */
    public void setLeaseDuration(Duration leaseDuration) {
        this.leaseDuration = leaseDuration;
    }

    /** How often leases are extended. */
    public Duration getHeartbeatInterval() {
        return heartbeatInterval;
    }

    /** Sets how often leases are extended. */
    public void setHeartbeatInterval(Duration heartbeatInterval) {
        this.heartbeatInterval = heartbeatInterval;
    }

    /** How long completions are gathered. */
    public Duration getCompletionFlushInterval() {
        return completionFlushInterval;
    }

    /** Sets how long completions are gathered. */
    public void setCompletionFlushInterval(Duration completionFlushInterval) {
        this.completionFlushInterval = completionFlushInterval;
    }

    /** The most completions in one statement. */
    public int getCompletionBatchSize() {
        return completionBatchSize;
    }

    /** Sets the most completions in one statement. */
    public void setCompletionBatchSize(int completionBatchSize) {
        this.completionBatchSize = completionBatchSize;
    }

    /** How often expired leases are looked for. */
    public Duration getRescueInterval() {
        return rescueInterval;
    }

    /** Sets how often expired leases are looked for. */
    public void setRescueInterval(Duration rescueInterval) {
        this.rescueInterval = rescueInterval;
    }

    /** How long shutdown waits for running tasks. */
    public Duration getShutdownTimeout() {
        return shutdownTimeout;
    }

    /** Sets how long shutdown waits for running tasks. */
    public void setShutdownTimeout(Duration shutdownTimeout) {
        this.shutdownTimeout = shutdownTimeout;
    }

    /** How long succeeded tasks are kept, or {@code null} to delete them at once. */
    public Duration getSucceededRetention() {
        return succeededRetention;
    }

    /** Sets how long succeeded tasks are kept; {@code null} deletes them at once. */
    public void setSucceededRetention(Duration succeededRetention) {
        this.succeededRetention = succeededRetention;
    }

    /** How often expired succeeded tasks are pruned. */
    public Duration getPruneInterval() {
        return pruneInterval;
    }

    /** Sets how often expired succeeded tasks are pruned. */
    public void setPruneInterval(Duration pruneInterval) {
        this.pruneInterval = pruneInterval;
    }

    /** The delay before retrying a task of an unknown kind. */
    public Duration getUnknownKindRetryDelay() {
        return unknownKindRetryDelay;
    }

    /** Sets the delay before retrying a task of an unknown kind. */
    public void setUnknownKindRetryDelay(Duration unknownKindRetryDelay) {
        this.unknownKindRetryDelay = unknownKindRetryDelay;
    }

    /** The default maximum attempts. */
    public int getDefaultMaxAttempts() {
        return defaultMaxAttempts;
    }

    /** Sets the default maximum attempts. */
    public void setDefaultMaxAttempts(int defaultMaxAttempts) {
        this.defaultMaxAttempts = defaultMaxAttempts;
    }

    /** The table prefix. */
    public String getTablePrefix() {
        return tablePrefix;
    }

    /** Sets the table prefix. */
    public void setTablePrefix(String tablePrefix) {
        this.tablePrefix = tablePrefix;
    }

    /** How pollers claim tasks. */
    public ClaimStrategy getClaimStrategy() {
        return claimStrategy;
    }

    /** Sets how pollers claim tasks. */
    public void setClaimStrategy(ClaimStrategy claimStrategy) {
        this.claimStrategy = claimStrategy;
    }

    /** The explicit dialect, or {@code null} to detect it. */
    public String getDialect() {
        return dialect;
    }

    /** Sets the explicit dialect. */
    public void setDialect(String dialect) {
        this.dialect = dialect;
    }

    /** The claim strategies {@code errand.claim-strategy} names. */
    public enum ClaimStrategy {
        /** {@code FOR UPDATE SKIP LOCKED}, the default. */
        SKIP_LOCKED,
        /** Read candidates, then {@code UPDATE … WHERE id = ? AND version = ?}. */
        OPTIMISTIC_VERSION
    }

    /** Whether Errand applies its own migrations. */
    public boolean isMigrationsEnabled() {
        return migrationsEnabled;
    }

    /** Sets whether Errand applies its own migrations. */
    public void setMigrationsEnabled(boolean migrationsEnabled) {
        this.migrationsEnabled = migrationsEnabled;
    }

    /** The settings of the statistics behind health, endpoint and gauges. */
    public Stats getStats() {
        return stats;
    }

    /** The settings of the persistent {@code TaskExecutor}. */
    public TaskExecutor getTaskExecutor() {
        return taskExecutor;
    }

    /** Copies these properties onto {@code builder}. Call {@link #validate} (binding does) first. */
    public void applyTo(ErrandBuilder builder) {
        if (nodeId != null) {
            builder.nodeId(nodeId);
        }
        queues.forEach((name, queue) -> builder.queue(name, queue.getConcurrency()));
        builder.processingEnabled(processingEnabled)
                .pollInterval(pollInterval)
                .claimBatchSize(claimBatchSize)
                .leaseDuration(leaseDuration)
                .heartbeatInterval(heartbeatInterval)
                .completionFlushInterval(completionFlushInterval)
                .completionBatchSize(completionBatchSize)
                .rescueInterval(rescueInterval)
                .shutdownTimeout(shutdownTimeout)
                .succeededRetention(succeededRetention)
                .pruneInterval(pruneInterval)
                .unknownKindRetryDelay(unknownKindRetryDelay)
                .defaultMaxAttempts(defaultMaxAttempts)
                .tablePrefix(tablePrefix)
                .migrationsEnabled(migrationsEnabled)
                .claimStrategy(claimStrategy == ClaimStrategy.OPTIMISTIC_VERSION
                        ? ClaimStrategies.optimisticVersion() : ClaimStrategies.skipLocked());
        if (dialect != null) {
            builder.dialect(dialect);
        }
    }

    /** Validates {@code ErrandProperties} only. */
    @Override
    public boolean supports(Class<?> type) {
        return ErrandProperties.class.isAssignableFrom(type);
    }

    /** Checks every value against its allowed range; each error names the property. */
    @Override
    public void validate(Object target, Errors errors) {
        ErrandProperties p = (ErrandProperties) target;
        if (p.nodeId != null && (p.nodeId.isBlank() || p.nodeId.length() > 200)) {
            reject(errors, "nodeId", "errand.node-id must be 1 to 200 non-blank characters, got \"" + p.nodeId + "\"");
        }
        if (p.queues != null) {
            p.queues.forEach((name, queue) -> {
                if (name.isBlank() || name.length() > 100) {
                    reject(errors, null, "errand.queues: queue name must be 1 to 100 non-blank characters, got \""
                            + name + "\"");
                }
                int concurrency = queue == null ? 0 : queue.getConcurrency();
                if (concurrency < 1 || concurrency > CONCURRENCY_MAX) {
                    reject(errors, null, "errand.queues." + name + ".concurrency must be between 1 and "
                            + CONCURRENCY_MAX + ", got " + concurrency);
                }
            });
        }
        if (p.dialect != null) {
            try {
                Dialects.named(p.dialect);
            } catch (IllegalArgumentException e) {
                reject(errors, "dialect", "errand.dialect must be one of postgresql, mariadb, mysql, h2 (or unset to"
                        + " detect it), got \"" + p.dialect + "\"");
            }
        }
        if (p.claimStrategy == null) {
            reject(errors, "claimStrategy", "errand.claim-strategy must be skip-locked or optimistic-version");
        }
        range(errors, "pollInterval", "errand.poll-interval", p.pollInterval, POLL_INTERVAL_MIN, POLL_INTERVAL_MAX);
        range(errors, "claimBatchSize", "errand.claim-batch-size", p.claimBatchSize, 1, CLAIM_BATCH_MAX);
        boolean leaseOk = range(errors, "leaseDuration", "errand.lease-duration", p.leaseDuration, LEASE_MIN,
                LEASE_MAX);
        boolean heartbeatOk = range(errors, "heartbeatInterval", "errand.heartbeat-interval", p.heartbeatInterval,
                HEARTBEAT_MIN, HEARTBEAT_MAX);
        range(errors, "completionFlushInterval", "errand.completion-flush-interval", p.completionFlushInterval,
                FLUSH_MIN, FLUSH_MAX);
        range(errors, "completionBatchSize", "errand.completion-batch-size", p.completionBatchSize, 1,
                COMPLETION_BATCH_MAX);
        range(errors, "rescueInterval", "errand.rescue-interval", p.rescueInterval, RESCUE_MIN, RESCUE_MAX);
        range(errors, "shutdownTimeout", "errand.shutdown-timeout", p.shutdownTimeout, SHUTDOWN_MIN, SHUTDOWN_MAX);
        if (p.succeededRetention != null) {
            range(errors, "succeededRetention", "errand.succeeded-retention", p.succeededRetention, RETENTION_MIN,
                    RETENTION_MAX);
        }
        range(errors, "pruneInterval", "errand.prune-interval", p.pruneInterval, PRUNE_MIN, PRUNE_MAX);
        range(errors, "unknownKindRetryDelay", "errand.unknown-kind-retry-delay", p.unknownKindRetryDelay,
                UNKNOWN_KIND_MIN, UNKNOWN_KIND_MAX);
        range(errors, "defaultMaxAttempts", "errand.default-max-attempts", p.defaultMaxAttempts, 1, ATTEMPTS_MAX);
        if (p.tablePrefix == null || !TABLE_PREFIX.matcher(p.tablePrefix).matches()) {
            reject(errors, "tablePrefix", "errand.table-prefix must be a letter or '_' followed by letters, digits"
                    + " or '_', at most 40 characters in all (for example \"errand_\"), got \"" + p.tablePrefix + "\"");
        }
        if (leaseOk && heartbeatOk && p.leaseDuration.compareTo(p.heartbeatInterval.multipliedBy(2)) < 0) {
            reject(errors, "leaseDuration", "errand.lease-duration (" + DurationText.of(p.leaseDuration)
                    + ") must be at least twice errand.heartbeat-interval (" + DurationText.of(p.heartbeatInterval)
                    + "), or one slow heartbeat would let rescue take healthy tasks");
        }
        range(errors, "stats.cacheDuration", "errand.stats.cache-duration", p.stats.cacheDuration, Duration.ZERO,
                STATS_CACHE_MAX);
        range(errors, "stats.overdueAfter", "errand.stats.overdue-after", p.stats.overdueAfter, OVERDUE_MIN,
                OVERDUE_MAX);
        String queue = p.taskExecutor.queue;
        if (queue == null || queue.isBlank() || queue.length() > 100) {
            reject(errors, "taskExecutor.queue", "errand.task-executor.queue must be 1 to 100 non-blank characters,"
                    + " got " + (queue == null ? "null" : "\"" + queue + "\""));
        }
    }

    private static boolean range(Errors errors, String field, String property, Duration value, Duration min,
            Duration max) {
        if (value == null || value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            reject(errors, field, property + " must be between " + DurationText.of(min) + " and "
                    + DurationText.of(max) + ", got " + DurationText.of(value));
            return false;
        }
        return true;
    }

    private static void range(Errors errors, String field, String property, int value, int min, int max) {
        if (value < min || value > max) {
            reject(errors, field, property + " must be between " + min + " and " + max + ", got " + value);
        }
    }

    private static void reject(Errors errors, String field, String message) {
        if (field == null) {
            errors.reject("errand.invalid", message);
        } else {
            errors.rejectValue(field, "errand.invalid", message);
        }
    }

    /** One queue's settings. */
    public static class Queue {

        /** How many of this queue's tasks the node runs at once (worker threads): 1 to 1000. */
        private int concurrency = 4;

        /** How many tasks of this queue the node runs at once. */
        public int getConcurrency() {
            return concurrency;
        }

        /** Sets how many tasks of this queue the node runs at once. */
        public void setConcurrency(int concurrency) {
            this.concurrency = concurrency;
        }
    }

    /** Settings of the task-table statistics that the health indicator, endpoint and gauges read. */
    public static class Stats {

        /** How long statistics read from the task table are reused, so that scrapes do not hammer the database: 0 to 1h. */
        private Duration cacheDuration = Duration.ofSeconds(5);

        /** How long past its run time a pending task must wait to count as overdue in the health details: 1s to 30d. */
        private Duration overdueAfter = Duration.ofMinutes(5);

        /** How long statistics are reused. */
        public Duration getCacheDuration() {
            return cacheDuration;
        }

        /** Sets how long statistics are reused. */
        public void setCacheDuration(Duration cacheDuration) {
            this.cacheDuration = cacheDuration;
        }

        /** How long past its run time a pending task waits before it counts as overdue. */
        public Duration getOverdueAfter() {
            return overdueAfter;
        }

        /** Sets how long past its run time a pending task waits before it counts as overdue. */
        public void setOverdueAfter(Duration overdueAfter) {
            this.overdueAfter = overdueAfter;
        }
    }

    /** Settings of the persistent {@code TaskExecutor}. */
    public static class TaskExecutor {

        /** Whether to register the errandTaskExecutor bean when a PersistentRunnables bean exists. */
        private boolean enabled = true;

        /** The queue that runnables persisted by the errandTaskExecutor go to; it must be declared in errand.queues (or be "default" when none is). */
        private String queue = "default";

        /** Whether to register the executor. */
        public boolean isEnabled() {
            return enabled;
        }

        /** Sets whether to register the executor. */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /** The queue for persisted runnables. */
        public String getQueue() {
            return queue;
        }

        /** Sets the queue for persisted runnables. */
        public void setQueue(String queue) {
            this.queue = queue;
        }
    }
}
