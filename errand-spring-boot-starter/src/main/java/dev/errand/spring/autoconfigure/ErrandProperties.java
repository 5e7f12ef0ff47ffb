package dev.errand.spring.autoconfigure;

import dev.errand.ClaimStrategies;
import dev.errand.ErrandBuilder;
import dev.errand.config.ClaimOrder;
import dev.errand.config.ClusterSettings;
import dev.errand.config.ErrandSettings;
import dev.errand.config.NodeIds;
import dev.errand.config.Setting;
import dev.errand.config.Settings;
import dev.errand.flow.FlowLimits;
import dev.errand.flow.RateLimit;
import dev.errand.schedule.MisfirePolicy;
import dev.errand.schedule.Schedule;
import dev.errand.task.TaskDefinition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * The {@code errand.*} properties. Each maps to the {@link ErrandBuilder} setting of the same name, and
 * takes its default and range from the core's table of settings, {@link Settings}, so that the two cannot
 * drift apart. Out-of-range values stop start-up; the message names the property and its
 * allowed range. The class validates itself ({@link Validator}), so no Bean Validation provider is needed.
 */
@ConfigurationProperties("errand")
public class ErrandProperties implements Validator {

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

    /**
     * A stable node id instead of the random default: the node id becomes the host name, a dash and this
     * suffix, the same at every restart on the same host. 1 to 50 letters, digits, '.', '_' or '-'; two nodes
     * on one host need different suffixes. Not with errand.node-id.
     */
    private String nodeIdSuffix;

    /**
     * The prefix of the names of this node's threads, such as errand-mail-worker-1: 1 to 40 characters,
     * no control characters.
     */
    private String threadNamePrefix = ErrandSettings.DEFAULT_THREAD_NAME_PREFIX;

    /**
     * Whether this node runs tasks. With false it only enqueues and administers tasks; it still registers in
     * the cluster (as not processing) and reads commands.
     */
    private boolean processingEnabled = true;

    /**
     * Whether handlers run on virtual threads (Java 21 and later). Unset, it follows
     * {@code spring.threads.virtual.enabled}.
     */
    private Boolean virtualThreads;

    /**
     * Queues this node serves, with their concurrency. Enqueueing accepts only declared queues. When none is
     * declared, the node has one queue "default" with concurrency 4; declare "default" too if you declare
     * others and requests use it. {@code errand.queues.<name>.concurrency-limit} and {@code rate-limit} with
     * {@code rate-period} limit the queue across the cluster.
     */
    private Map<String, Queue> queues = new LinkedHashMap<>();

    /**
     * Cluster-wide flow limits per task kind, {@code errand.flow.kinds.<kind>.*}: concurrency-limit,
     * key-concurrency-limit, rate-limit or key-rate-limit with rate-period, limit-key-from. They apply to {@code
     * @ErrandTask} kinds and persistent runnables, over the annotation. See docs/FLOW-CONTROL.md.
     */
    private final Flow flow = new Flow();

    /** The longest a poller sleeps without a wake-up: 10ms to 1h. */
    private Duration pollInterval = Settings.POLL_INTERVAL.defaultValue();

    /** The most tasks one claim statement takes: 1 to 10000. */
    private int claimBatchSize = Settings.CLAIM_BATCH_SIZE.defaultValue();

    /**
     * The most claimed tasks a queue keeps waiting for a free worker: about as many as it completed in the
     * last 200 ms, up to this: 0 to 10000. 0 claims only for free workers. It replaces an executor's queue
     * capacity: a buffered task is already claimed, with a lease, so a crash loses nothing.
     */
    private int prefetch = Settings.PREFETCH.defaultValue();

    /** The lease set by every claim and the default lease of non-transactional kinds: 1s to 24h, and at least twice the heartbeat interval. */
    private Duration leaseDuration = Settings.LEASE_DURATION.defaultValue();

    /** How often the node extends the leases it holds: 100ms to 1h. */
    private Duration heartbeatInterval = Settings.HEARTBEAT_INTERVAL.defaultValue();

    /** How long completions of non-transactional tasks are gathered into one statement: 1ms to 10s. */
    private Duration completionFlushInterval = Settings.COMPLETION_FLUSH_INTERVAL.defaultValue();

    /** The most completions in one statement: 1 to 10000. */
    private int completionBatchSize = Settings.COMPLETION_BATCH_SIZE.defaultValue();

    /** How often the node looks for tasks whose lease expired: 100ms to 1h. */
    private Duration rescueInterval = Settings.RESCUE_INTERVAL.defaultValue();

    /** How long shutdown waits for running tasks: 0 to 1h. Keep it below the platform's termination grace period. */
    private Duration shutdownTimeout = Settings.SHUTDOWN_TIMEOUT.defaultValue();

    /**
     * How long succeeded tasks are kept as 'succeeded' rows before they are pruned: 1s to 3650d. Unset
     * (the default): a succeeded task's row is deleted when it completes.
     */
    private Duration succeededRetention;

    /** How often finished tasks past their retention (succeeded, and failed or cancelled where one is set) are deleted: 1s to 24h. Used only with a retention. */
    private Duration pruneInterval = Settings.PRUNE_INTERVAL.defaultValue();

    /** How long failed tasks are kept after they failed: 1s to 3650d. Unset (the default): kept until deleted. */
    private Duration failedRetention;

    /** How long cancelled tasks are kept: 1s to 3650d. Unset (the default): kept until deleted. */
    private Duration cancelledRetention;

    /**
     * How long a finished batch's own rows (counters, callbacks) are kept, counted from its creation: 1s to
     * 3650d. They go once it has finished and its callbacks have fired; its tasks follow their own retention.
     * Unset (the default): kept until deleted.
     */
    private Duration batchRetention;

    /**
     * How long a premature event (triggered while no task waited for it) is kept after it was last triggered:
     * 1s to 3650d. Unset (the default): kept until a task consumes it or it is deleted by hand.
     */
    private Duration prematureEventRetention;

    /**
     * Whether every ended attempt is recorded in the attempt history (errand_task_attempt). Off by default: it
     * costs about a sixth of burn-down throughput on PostgreSQL.
     */
    private boolean historyEnabled;

    /** How long the attempt history keeps an attempt after it finished: 1s to 3650d. */
    private Duration historyRetention = Settings.HISTORY_RETENTION.defaultValue();

    /** The most characters of a failed attempt's stack trace the attempt history keeps: 0 to 100000. */
    private int historyStackTraceLimit = Settings.HISTORY_STACK_TRACE_LIMIT.defaultValue();

    /**
     * The most of its time, in percent, the scheduler spends firing while more than 100 schedules are due
     * at once: 1 to 100 (100 fires without pauses).
     */
    private int scheduleFiringPercent = Settings.SCHEDULE_FIRING_PERCENT.defaultValue();

    /**
     * How long before its slot a schedule's task may be written, each schedule at its own point of this
     * window, so that many schedules on one minute are written spread over the minute before it: 0 to 1h
     * (0 writes each slot when it comes).
     */
    private Duration scheduleLookahead = Settings.SCHEDULE_LOOKAHEAD.defaultValue();

    /** The delay before another attempt of a task whose kind this node does not know: 0 to 24h. */
    private Duration unknownKindRetryDelay = Settings.UNKNOWN_KIND_RETRY_DELAY.defaultValue();

    /** The most attempts for tasks whose kind and request set none: 1 to 1000. */
    private int defaultMaxAttempts = Settings.DEFAULT_MAX_ATTEMPTS.defaultValue();

    /**
     * The prefix of Errand's table names and PostgreSQL channel: a letter or '_', then letters, digits or
     * '_', at most 40 characters.
     */
    private String tablePrefix = "errand_";

    /** Whether Errand applies its own schema migrations (with Flyway, in a history table of its own) at start-up. */
    private boolean migrationsEnabled = true;

    /**
     * The node groups this node serves: tasks pinned to one of them may run here. Names are 1 to 200
     * characters, without commas or control characters.
     */
    private List<String> nodeGroups = new ArrayList<>();

    /** Whether this node claims only tasks pinned to it or to its groups, never unpinned ones. */
    private boolean exclusive = false;

    /**
     * How old a node's heartbeat may be before the leader declares it dead and rescues its tasks at once:
     * 200ms to 1h, at least twice the heartbeat interval. Left at 30s, it grows to three heartbeat
     * intervals when those are longer.
     */
    private Duration deadNodeTimeout = Settings.DEAD_NODE_TIMEOUT.defaultValue();

    /**
     * How long the node registry keeps the row of a node that stopped or was declared dead before the leader
     * deletes it: 1m to 3650d.
     */
    private Duration nodeRetention = Settings.NODE_RETENTION.defaultValue();

    /**
     * How long the leader's lease lasts without renewal: 400ms to 1h. Every node tries to take or renew it each
     * quarter of it, so a dead leader is replaced within about 1.25 leases.
     */
    private Duration leaderLease = Settings.LEADER_LEASE.defaultValue();

    /** How long a started node waits before its first claim: 0 to 1h. */
    private Duration startupDelay = Settings.STARTUP_DELAY.defaultValue();

    /** The shortest time between two empty claims of one queue: 0 to 1m, at most the poll interval. */
    private Duration minimumPollInterval = Settings.MINIMUM_POLL_INTERVAL.defaultValue();

    /**
     * How pollers claim tasks: skip-locked (FOR UPDATE SKIP LOCKED, the default) or optimistic-version (for
     * databases or proxies without SKIP LOCKED).
     */
    private ClaimStrategy claimStrategy = ClaimStrategy.SKIP_LOCKED;

    /**
     * The order in which this node claims due tasks within a priority: due-first (the task due longest first,
     * the default) or fewest-attempts-first (fresh tasks before retried ones, at a cost for large backlogs).
     */
    private ClaimOrder claimOrder = ClaimOrder.DUE_FIRST;

    /**
     * The database dialect, instead of detecting it from JDBC metadata: postgresql, mariadb, mysql or h2.
     * Unset: detected.
     */
    private String dialect;

    private final Stats stats = new Stats();

    private final Notifications notifications = new Notifications();

    private final TaskExecutor taskExecutor = new TaskExecutor();

    private final Enqueue enqueue = new Enqueue();

    private final ProcessingLogs processingLogs = new ProcessingLogs();

    /**
     * Recurring schedules by name: each enqueues one task of its kind per slot of a cron expression or an
     * interval, once across the cluster. Each entry takes kind, cron or every, zone, queue, misfire,
     * misfire-limit and payload.*; an invalid one stops start-up. Schedule beans are declared too.
     */
    private Map<String, ScheduleSpec> schedules = new LinkedHashMap<>();

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

    /** The suffix of a stable node id built from the host name, or {@code null} for none. */
    public String getNodeIdSuffix() {
        return nodeIdSuffix;
    }

    /** Sets the suffix of a stable node id built from the host name. */
    public void setNodeIdSuffix(String nodeIdSuffix) {
        this.nodeIdSuffix = nodeIdSuffix;
    }

    /** How long the leader's lease lasts without renewal. */
    public Duration getLeaderLease() {
        return leaderLease;
    }

    /** Sets how long the leader's lease lasts without renewal. */
    public void setLeaderLease(Duration leaderLease) {
        this.leaderLease = leaderLease;
    }

    /** How long the registry keeps a stopped or dead node's row. */
    public Duration getNodeRetention() {
        return nodeRetention;
    }

    /** Sets how long the registry keeps a stopped or dead node's row. */
    public void setNodeRetention(Duration nodeRetention) {
        this.nodeRetention = nodeRetention;
    }

    /** Whether this node runs tasks. */
    public boolean isProcessingEnabled() {
        return processingEnabled;
    }

    /** Sets whether this node runs tasks. */
    public void setProcessingEnabled(boolean processingEnabled) {
        this.processingEnabled = processingEnabled;
    }

    /** Whether handlers run on virtual threads; {@code null} follows {@code spring.threads.virtual.enabled}. */
    public Boolean getVirtualThreads() {
        return virtualThreads;
    }

    /** Sets whether handlers run on virtual threads. */
    public void setVirtualThreads(Boolean virtualThreads) {
        this.virtualThreads = virtualThreads;
    }

    /** The prefix of the names of this node's threads. */
    public String getThreadNamePrefix() {
        return threadNamePrefix;
    }

    /** Sets the prefix of the names of this node's threads. */
    public void setThreadNamePrefix(String threadNamePrefix) {
        this.threadNamePrefix = threadNamePrefix;
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

    /** The most claimed tasks a queue keeps waiting for a free worker. */
    public int getPrefetch() {
        return prefetch;
    }

    /** Sets the most claimed tasks a queue keeps waiting for a free worker. */
    public void setPrefetch(int prefetch) {
        this.prefetch = prefetch;
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

    /** Whether the attempt history is recorded. */
    public boolean isHistoryEnabled() {
        return historyEnabled;
    }

    /** Sets whether the attempt history is recorded. */
    public void setHistoryEnabled(boolean historyEnabled) {
        this.historyEnabled = historyEnabled;
    }

    /** How long the attempt history keeps an attempt. */
    public Duration getHistoryRetention() {
        return historyRetention;
    }

    /** Sets how long the attempt history keeps an attempt. */
    public void setHistoryRetention(Duration historyRetention) {
        this.historyRetention = historyRetention;
    }

    /** The most characters of a stack trace kept per attempt. */
    public int getHistoryStackTraceLimit() {
        return historyStackTraceLimit;
    }

    /** Sets the most characters of a stack trace kept per attempt. */
    public void setHistoryStackTraceLimit(int historyStackTraceLimit) {
        this.historyStackTraceLimit = historyStackTraceLimit;
    }

    /** The most of its time, in percent, the scheduler spends firing a large minute. */
    public int getScheduleFiringPercent() {
        return scheduleFiringPercent;
    }

    /** Sets the most of its time, in percent, the scheduler spends firing a large minute. */
    public void setScheduleFiringPercent(int scheduleFiringPercent) {
        this.scheduleFiringPercent = scheduleFiringPercent;
    }

    /** How long before its slot a schedule's task may be written. */
    public Duration getScheduleLookahead() {
        return scheduleLookahead;
    }

    /** Sets how long before its slot a schedule's task may be written. */
    public void setScheduleLookahead(Duration scheduleLookahead) {
        this.scheduleLookahead = scheduleLookahead;
    }

    /** How long failed tasks are kept, or {@code null} to keep them. */
    public Duration getFailedRetention() {
        return failedRetention;
    }

    /** Sets how long failed tasks are kept; {@code null} keeps them. */
    public void setFailedRetention(Duration failedRetention) {
        this.failedRetention = failedRetention;
    }

    /** How long cancelled tasks are kept, or {@code null} to keep them. */
    public Duration getCancelledRetention() {
        return cancelledRetention;
    }

    /** Sets how long cancelled tasks are kept; {@code null} keeps them. */
    public void setCancelledRetention(Duration cancelledRetention) {
        this.cancelledRetention = cancelledRetention;
    }

    /** How long finished batches' rows are kept, or {@code null} to keep them. */
    public Duration getBatchRetention() {
        return batchRetention;
    }

    /** Sets how long finished batches' rows are kept; {@code null} keeps them. */
    public void setBatchRetention(Duration batchRetention) {
        this.batchRetention = batchRetention;
    }

    /** How long premature events are kept, or {@code null} to keep them until consumed. */
    public Duration getPrematureEventRetention() {
        return prematureEventRetention;
    }

    /** Sets how long premature events are kept; {@code null} keeps them until consumed. */
    public void setPrematureEventRetention(Duration prematureEventRetention) {
        this.prematureEventRetention = prematureEventRetention;
    }

    /** How often finished tasks past their retention are pruned. */
    public Duration getPruneInterval() {
        return pruneInterval;
    }

    /** Sets how often finished tasks past their retention are pruned. */
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

    /** The order in which this node claims due tasks. */
    public ClaimOrder getClaimOrder() {
        return claimOrder;
    }

    /** Sets the order in which this node claims due tasks. */
    public void setClaimOrder(ClaimOrder claimOrder) {
        this.claimOrder = claimOrder;
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

    /** The node groups this node serves. */
    public List<String> getNodeGroups() {
        return nodeGroups;
    }

    /** Sets the node groups this node serves. */
    public void setNodeGroups(List<String> nodeGroups) {
        this.nodeGroups = nodeGroups;
    }

    /** Whether this node claims only tasks pinned to it or its groups. */
    public boolean isExclusive() {
        return exclusive;
    }

    /** Sets whether this node claims only tasks pinned to it or its groups. */
    public void setExclusive(boolean exclusive) {
        this.exclusive = exclusive;
    }

    /** {@link Settings#DEAD_NODE_TIMEOUT}. */
    public Duration getDeadNodeTimeout() {
        return deadNodeTimeout;
    }

    /** Sets {@link Settings#DEAD_NODE_TIMEOUT}. */
    public void setDeadNodeTimeout(Duration deadNodeTimeout) {
        this.deadNodeTimeout = deadNodeTimeout;
    }

    /** {@link Settings#STARTUP_DELAY}. */
    public Duration getStartupDelay() {
        return startupDelay;
    }

    /** Sets {@link Settings#STARTUP_DELAY}. */
    public void setStartupDelay(Duration startupDelay) {
        this.startupDelay = startupDelay;
    }

    /** {@link Settings#MINIMUM_POLL_INTERVAL}. */
    public Duration getMinimumPollInterval() {
        return minimumPollInterval;
    }

    /** Sets {@link Settings#MINIMUM_POLL_INTERVAL}. */
    public void setMinimumPollInterval(Duration minimumPollInterval) {
        this.minimumPollInterval = minimumPollInterval;
    }

    /** Whether Errand applies its own migrations. */
    public boolean isMigrationsEnabled() {
        return migrationsEnabled;
    }

    /** Sets whether Errand applies its own migrations. */
    public void setMigrationsEnabled(boolean migrationsEnabled) {
        this.migrationsEnabled = migrationsEnabled;
    }

    /** The flow limits per kind. */
    public Flow getFlow() {
        return flow;
    }

    /** The settings of the statistics behind health, endpoint and gauges. */
    public Stats getStats() {
        return stats;
    }

    /** The settings of PostgreSQL's wake-up notifications (LISTEN/NOTIFY). */
    public Notifications getNotifications() {
        return notifications;
    }

    /** The settings of the persistent {@code TaskExecutor}. */
    public TaskExecutor getTaskExecutor() {
        return taskExecutor;
    }

    /** Settings of processing logs. */
    public ProcessingLogs getProcessingLogs() {
        return processingLogs;
    }

    /** The settings of enqueueing through {@code ErrandClient}. */
    public Enqueue getEnqueue() {
        return enqueue;
    }

    /** The recurring schedules declared in properties, by name. */
    public Map<String, ScheduleSpec> getSchedules() {
        return schedules;
    }

    /** Sets the recurring schedules declared in properties. */
    public void setSchedules(Map<String, ScheduleSpec> schedules) {
        this.schedules = schedules;
    }

    /**
     * The schedules declared in properties, built.
     *
     * @throws IllegalArgumentException naming the property if one is invalid
     */
    public List<Schedule> buildSchedules() {
        List<Schedule> built = new ArrayList<>();
        schedules.forEach((name, spec) -> {
            try {
                built.add(spec.build(name));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("errand.schedules." + name + ": " + e.getMessage(), e);
            }
        });
        return built;
    }

    /** Copies these properties onto {@code builder}. Call {@link #validate} (binding does) first. */
    public void applyTo(ErrandBuilder builder) {
        if (nodeId != null) {
            builder.nodeId(nodeId);
        } else if (nodeIdSuffix != null) {
            builder.nodeIdFromHost(nodeIdSuffix);
        }
        queues.forEach((name, queue) -> {
            builder.queue(name, queue.getConcurrency());
            if (queue.getConcurrencyLimit() != null) {
                builder.queueConcurrencyLimit(name, queue.getConcurrencyLimit());
            }
            if (queue.getRateLimit() != null) {
                builder.queueRateLimit(name, queue.getRateLimit(), queue.getRatePeriod());
            }
        });
        builder.threadNamePrefix(threadNamePrefix)
                .processingEnabled(processingEnabled)
                .historyEnabled(historyEnabled)
                .processingLogsEnabled(processingLogs.isEnabled())
                .tablePrefix(tablePrefix)
                .migrationsEnabled(migrationsEnabled)
                .claimStrategy(
                        claimStrategy == ClaimStrategy.OPTIMISTIC_VERSION
                                ? ClaimStrategies.optimisticVersion()
                                : ClaimStrategies.skipLocked())
                .claimOrder(claimOrder)
                .nodeGroups(nodeGroups.toArray(String[]::new))
                .exclusive(exclusive);
        if (dialect != null) {
            builder.dialect(dialect);
        }
        if (virtualThreads != null) {
            builder.virtualThreads(virtualThreads);
        }
        notifications.applyTo(builder);
        BeanWrapper values = new BeanWrapperImpl(this);
        for (Setting<?> setting : Settings.nodeSettings()) {
            Object value = values.getPropertyValue(setting.name());
            // Left at the default, the dead-node timeout follows the heartbeat interval (three of them when longer).
            if (setting != Settings.DEAD_NODE_TIMEOUT || !setting.defaultValue().equals(value)) {
                set(builder, setting, value);
            }
        }
    }

    private static <T extends Comparable<? super T>> void set(ErrandBuilder builder, Setting<T> setting, Object value) {
        builder.set(setting, setting.type().cast(value));
    }

    /** Validates {@code ErrandProperties} only. */
    @Override
    public boolean supports(Class<?> type) {
        return ErrandProperties.class.isAssignableFrom(type);
    }

    /** Checks every value against its allowed range; each error names the property. */
    @Override
    public void validate(Object target, Errors errors) {
        ErrandProperties properties = (ErrandProperties) target;
        properties.checkNode(errors);
        properties.checkQueues(errors);
        properties.flow.check(errors);
        properties.checkTable(errors);
        properties.checkCluster(errors);
        properties.checkSchedules(errors);
        properties.stats.check(errors);
        properties.notifications.check(errors);
        properties.taskExecutor.check(errors);
    }

    /** The node's own names: its id, thread names, tables, dialect and claim strategy. */
    private void checkNode(Errors errors) {
        if (nodeId != null && (nodeId.isBlank() || nodeId.length() > 200)) {
            reject(errors, "nodeId", "errand.node-id must be 1 to 200 non-blank characters, got \"" + nodeId + "\"");
        }
        if (nodeIdSuffix != null) {
            if (nodeId != null) {
                reject(
                        errors,
                        "nodeIdSuffix",
                        "errand.node-id-suffix and errand.node-id conflict: set errand.node-id for an id of your"
                                + " own, or errand.node-id-suffix for the host name and a suffix, not both");
            }
            try {
                NodeIds.requireSuffix(nodeIdSuffix);
            } catch (IllegalArgumentException e) {
                reject(errors, "nodeIdSuffix", "errand.node-id-suffix: " + e.getMessage());
            }
        }
        if (threadNamePrefix == null
                || threadNamePrefix.isBlank()
                || threadNamePrefix.length() > 40
                || !threadNamePrefix.equals(threadNamePrefix.strip())
                || threadNamePrefix.chars().anyMatch(Character::isISOControl)) {
            reject(
                    errors,
                    "threadNamePrefix",
                    "errand.thread-name-prefix must be 1 to 40 characters without"
                            + " surrounding spaces or control characters, for example \"billing-\", got "
                            + (threadNamePrefix == null ? "nothing" : "\"" + threadNamePrefix + "\""));
        }
        if (tablePrefix == null || !TABLE_PREFIX.matcher(tablePrefix).matches()) {
            reject(
                    errors,
                    "tablePrefix",
                    "errand.table-prefix must be a letter or '_' followed by letters, digits"
                            + " or '_', at most 40 characters in all (for example \"errand_\"), got \"" + tablePrefix
                            + "\"");
        }
        if (dialect != null
                && !ErrandBuilder.dialectNames().contains(dialect.trim().toLowerCase(Locale.ROOT))) {
            reject(
                    errors,
                    "dialect",
                    "errand.dialect must be one of " + String.join(", ", ErrandBuilder.dialectNames())
                            + " (or unset to detect it), got \"" + dialect + "\"");
        }
        if (claimStrategy == null) {
            reject(errors, "claimStrategy", "errand.claim-strategy must be skip-locked or optimistic-version");
        }
        if (claimOrder == null) {
            reject(errors, "claimOrder", "errand.claim-order must be due-first or fewest-attempts-first");
        }
    }

    /** Each queue's name and concurrency. */
    private void checkQueues(Errors errors) {
        if (queues == null) {
            return;
        }
        queues.forEach((name, queue) -> {
            if (name.isBlank() || name.length() > 100) {
                reject(
                        errors,
                        null,
                        "errand.queues: queue name must be 1 to 100 non-blank characters, got \"" + name + "\"");
            }
            Integer concurrency = queue == null ? null : queue.getConcurrency();
            Settings.CONCURRENCY
                    .problem("errand.queues." + name + ".concurrency", concurrency)
                    .ifPresent(problem -> reject(errors, null, problem));
            if (queue != null) {
                limit(errors, "errand.queues." + name + ".concurrency-limit", queue.getConcurrencyLimit());
                rate(errors, "errand.queues." + name + ".", queue.getRateLimit(), queue.getRatePeriod());
            }
        });
    }

    /**
     * Every node setting of the core's table, against the table's range (unset passes where unset is the
     * setting's default), then the rule that binds two of them: a lease outlives two heartbeats.
     */
    private void checkTable(Errors errors) {
        BeanWrapper values = new BeanWrapperImpl(this);
        for (Setting<?> setting : Settings.nodeSettings()) {
            Object value = values.getPropertyValue(setting.name());
            if (value != null || setting.defaultValue() != null) {
                check(errors, setting, value);
            }
        }
        boolean inRange = !errors.hasFieldErrors("leaseDuration") && !errors.hasFieldErrors("heartbeatInterval");
        if (inRange && leaseDuration.compareTo(heartbeatInterval.multipliedBy(2)) < 0) {
            reject(
                    errors,
                    "leaseDuration",
                    "errand.lease-duration (" + DurationText.of(leaseDuration)
                            + ") must be at least twice errand.heartbeat-interval ("
                            + DurationText.of(heartbeatInterval)
                            + "), or one slow heartbeat would let rescue take healthy tasks");
        }
    }

    /** The node groups' names, and exclusive mode against processing. */
    private void checkCluster(Errors errors) {
        if (nodeGroups != null) {
            for (String group : nodeGroups) {
                try {
                    ClusterSettings.requireGroup(group);
                } catch (IllegalArgumentException e) {
                    reject(errors, "nodeGroups", "errand.node-groups: " + e.getMessage());
                }
            }
        }
        if (exclusive && !processingEnabled) {
            reject(
                    errors,
                    "exclusive",
                    "errand.exclusive=true and errand.processing-enabled=false conflict: an exclusive node claims"
                            + " only its own tasks, a disabled node none; set one of them");
        }
    }

    /** Every schedule declared in properties builds. */
    private void checkSchedules(Errors errors) {
        if (schedules == null) {
            return;
        }
        schedules.forEach((name, spec) -> {
            try {
                spec.build(name);
            } catch (IllegalArgumentException e) {
                reject(errors, null, "errand.schedules." + name + ": " + e.getMessage());
            }
        });
    }

    private static <T extends Comparable<? super T>> void check(Errors errors, Setting<T> setting, Object value) {
        setting.problem("errand." + setting.property(), setting.type().cast(value))
                .ifPresent(message -> reject(errors, setting.name(), message));
    }

    private static void range(
            Errors errors, String field, String property, Duration value, Duration min, Duration max) {
        if (value == null || value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            reject(
                    errors,
                    field,
                    property + " must be between " + DurationText.of(min) + " and " + DurationText.of(max) + ", got "
                            + DurationText.of(value));
        }
    }

    /** Rejects a flow limit outside 1 to 10,000; null (unset) passes. */
    private static void limit(Errors errors, String property, Integer limit) {
        if (limit == null) {
            return;
        }
        try {
            FlowLimits.requireConcurrencyLimit(limit, property);
        } catch (IllegalArgumentException e) {
            reject(errors, null, e.getMessage());
        }
    }

    /**
     * Rejects a queue's rate-limit outside 1 to 10,000, a rate-limit without its rate-period or the reverse, and a
     * period outside 1 ms to 24 h; both unset pass.
     */
    private static void rate(Errors errors, String prefix, Integer rateLimit, Duration ratePeriod) {
        limit(errors, prefix + "rate-limit", rateLimit);
        if (rateLimit != null && ratePeriod == null) {
            reject(
                    errors,
                    null,
                    prefix + "rate-limit and " + prefix
                            + "rate-period go together, for example rate-limit=100 and rate-period=1m");
        } else if (rateLimit == null && ratePeriod != null) {
            reject(
                    errors,
                    null,
                    prefix + "rate-period needs " + prefix
                            + "rate-limit, for example rate-limit=100 and rate-period=1m");
        } else if (rateLimit != null) {
            try {
                new RateLimit(1, ratePeriod);
            } catch (IllegalArgumentException e) {
                reject(errors, null, prefix + "rate-period: " + e.getMessage());
            }
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
        private int concurrency = Settings.CONCURRENCY.defaultValue();

        /**
         * The most of this queue's tasks running at once across the whole cluster, 1 to 10,000; unset for no
         * cluster-wide limit. See docs/FLOW-CONTROL.md.
         */
        private Integer concurrencyLimit;

        /**
         * The most of this queue's tasks starting in any window of rate-period across the whole cluster, 1 to 10,000;
         * set with rate-period, unset for no cluster-wide rate limit. See docs/FLOW-CONTROL.md.
         */
        private Integer rateLimit;

        /** The window of rate-limit: 1ms to 24h, in whole milliseconds. */
        private Duration ratePeriod;

        /** The most of this queue's tasks starting per rate-period across the cluster, or null. */
        public Integer getRateLimit() {
            return rateLimit;
        }

        /** Sets the most of this queue's tasks starting per rate-period across the cluster. */
        public void setRateLimit(Integer rateLimit) {
            this.rateLimit = rateLimit;
        }

        /** The window of the queue's rate limit, or null. */
        public Duration getRatePeriod() {
            return ratePeriod;
        }

        /** Sets the window of the queue's rate limit. */
        public void setRatePeriod(Duration ratePeriod) {
            this.ratePeriod = ratePeriod;
        }

        /** The most of this queue's tasks running at once across the cluster, or null. */
        public Integer getConcurrencyLimit() {
            return concurrencyLimit;
        }

        /** Sets the most of this queue's tasks running at once across the cluster. */
        public void setConcurrencyLimit(Integer concurrencyLimit) {
            this.concurrencyLimit = concurrencyLimit;
        }

        /** How many tasks of this queue the node runs at once. */
        public int getConcurrency() {
            return concurrency;
        }

        /** Sets how many tasks of this queue the node runs at once. */
        public void setConcurrency(int concurrency) {
            this.concurrency = concurrency;
        }
    }

    /** Flow control: the cluster-wide limits of task kinds, {@code errand.flow.kinds.<kind>.*}. */
    public static class Flow {

        /** The flow limits of each kind, by kind name. */
        private Map<String, FlowKind> kinds = new LinkedHashMap<>();

        private void check(Errors errors) {
            if (kinds == null) {
                return;
            }
            kinds.forEach((kind, limits) -> {
                if (limits != null) {
                    limits.check(errors, "errand.flow.kinds." + kind + ".");
                }
            });
        }

        /** The flow limits by kind. */
        public Map<String, FlowKind> getKinds() {
            return kinds;
        }

        /** Sets the flow limits by kind. */
        public void setKinds(Map<String, FlowKind> kinds) {
            this.kinds = kinds;
        }
    }

    /**
     * One kind's flow limits. A kind has one limit: a concurrency limit, a per-key limit, a rate limit or a per-key
     * rate limit; one set here replaces those of the kind's {@code @ErrandTask}.
     */
    public static class FlowKind {

        /** The most tasks of the kind running at once across the cluster, 1 to 10,000. */
        private Integer concurrencyLimit;

        /** The most tasks of the kind with one limit key running at once across the cluster, 1 to 10,000. */
        private Integer keyConcurrencyLimit;

        /** The most tasks of the kind starting in any window of rate-period across the cluster, 1 to 10,000. */
        private Integer rateLimit;

        /**
         * The most tasks of the kind with one limit key starting in any window of rate-period across the cluster, 1
         * to 10,000.
         */
        private Integer keyRateLimit;

        /** The window of rate-limit or key-rate-limit: 1ms to 24h, in whole milliseconds. */
        private Duration ratePeriod;

        /** Where the limit key is read from the payload: a top-level field name or a JSON pointer (/customer/id). */
        private String limitKeyFrom;

        /** Whether a limit (not only limit-key-from) is set. */
        boolean hasLimit() {
            return concurrencyLimit != null || keyConcurrencyLimit != null || rateLimit != null || keyRateLimit != null;
        }

        /** Sets these limits on a kind's builder; {@link #check} passed. */
        void applyLimits(TaskDefinition.Builder<?> builder) {
            if (concurrencyLimit != null) {
                builder.concurrencyLimit(concurrencyLimit);
            } else if (keyConcurrencyLimit != null) {
                builder.concurrencyLimitPerKey(keyConcurrencyLimit);
            } else if (rateLimit != null) {
                builder.rateLimit(rateLimit, ratePeriod);
            } else if (keyRateLimit != null) {
                builder.rateLimitPerKey(keyRateLimit, ratePeriod);
            }
        }

        private void check(Errors errors, String prefix) {
            limit(errors, prefix + "concurrency-limit", concurrencyLimit);
            limit(errors, prefix + "key-concurrency-limit", keyConcurrencyLimit);
            limit(errors, prefix + "rate-limit", rateLimit);
            limit(errors, prefix + "key-rate-limit", keyRateLimit);
            int limits = (concurrencyLimit != null ? 1 : 0)
                    + (keyConcurrencyLimit != null ? 1 : 0)
                    + (rateLimit != null ? 1 : 0)
                    + (keyRateLimit != null ? 1 : 0);
            if (limits > 1) {
                reject(
                        errors,
                        null,
                        prefix + "*: set one of concurrency-limit, key-concurrency-limit, rate-limit and"
                                + " key-rate-limit; a kind has one flow limit");
            }
            boolean rated = rateLimit != null || keyRateLimit != null;
            if (rated && ratePeriod == null) {
                String limit = rateLimit != null ? "rate-limit" : "key-rate-limit";
                reject(
                        errors,
                        null,
                        prefix + limit + " and " + prefix + "rate-period go together, for example " + limit
                                + "=100 and rate-period=1m");
            } else if (!rated && ratePeriod != null) {
                reject(
                        errors,
                        null,
                        prefix + "rate-period needs " + prefix + "rate-limit or " + prefix
                                + "key-rate-limit, for example rate-limit=100 and rate-period=1m");
            } else if (rated) {
                try {
                    new RateLimit(1, ratePeriod);
                } catch (IllegalArgumentException e) {
                    reject(errors, null, prefix + "rate-period: " + e.getMessage());
                }
            }
            if (limitKeyFrom != null) {
                try {
                    TaskDefinition.builder("check", Object.class, (payload, context) -> {})
                            .limitKeyFrom(limitKeyFrom);
                } catch (IllegalArgumentException e) {
                    reject(errors, null, prefix + "limit-key-from: " + e.getMessage());
                }
            }
        }

        /** The concurrency limit, or null. */
        public Integer getConcurrencyLimit() {
            return concurrencyLimit;
        }

        /** Sets the concurrency limit. */
        public void setConcurrencyLimit(Integer concurrencyLimit) {
            this.concurrencyLimit = concurrencyLimit;
        }

        /** The per-key limit, or null. */
        public Integer getKeyConcurrencyLimit() {
            return keyConcurrencyLimit;
        }

        /** Sets the per-key limit. */
        public void setKeyConcurrencyLimit(Integer keyConcurrencyLimit) {
            this.keyConcurrencyLimit = keyConcurrencyLimit;
        }

        /** The starts per period of the rate limit, or null. */
        public Integer getRateLimit() {
            return rateLimit;
        }

        /** Sets the starts per period of the rate limit. */
        public void setRateLimit(Integer rateLimit) {
            this.rateLimit = rateLimit;
        }

        /** The starts per period of the per-key rate limit, or null. */
        public Integer getKeyRateLimit() {
            return keyRateLimit;
        }

        /** Sets the starts per period of the per-key rate limit. */
        public void setKeyRateLimit(Integer keyRateLimit) {
            this.keyRateLimit = keyRateLimit;
        }

        /** The period of the rate limit or per-key rate limit, or null. */
        public Duration getRatePeriod() {
            return ratePeriod;
        }

        /** Sets the period of the rate limit or per-key rate limit. */
        public void setRatePeriod(Duration ratePeriod) {
            this.ratePeriod = ratePeriod;
        }

        /** Where the limit key is read from the payload, or null. */
        public String getLimitKeyFrom() {
            return limitKeyFrom;
        }

        /** Sets where the limit key is read from the payload. */
        public void setLimitKeyFrom(String limitKeyFrom) {
            this.limitKeyFrom = limitKeyFrom;
        }
    }

    /** Settings of the task-table statistics that the health indicator, endpoint and gauges read. */
    public static class Stats {

        /** How long statistics read from the task table are reused, so that scrapes do not hammer the database: 0 to 1h. */
        private Duration cacheDuration = Duration.ofSeconds(5);

        /** How long past its run time a pending task must wait to count as overdue in the health details: 1s to 30d. */
        private Duration overdueAfter = Duration.ofMinutes(5);

        private void check(Errors errors) {
            range(
                    errors,
                    "stats.cacheDuration",
                    "errand.stats.cache-duration",
                    cacheDuration,
                    Duration.ZERO,
                    STATS_CACHE_MAX);
            range(errors, "stats.overdueAfter", "errand.stats.overdue-after", overdueAfter, OVERDUE_MIN, OVERDUE_MAX);
        }

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

    /**
     * Settings of PostgreSQL's wake-up notifications. Behind a connection pooler in transaction mode (PgBouncer),
     * which passes no notifications, give a direct connection to listen on with {@code url}.
     */
    public static class Notifications {

        /** Whether nodes on PostgreSQL listen for wake-ups (LISTEN/NOTIFY) and check at start that they arrive; false polls only. */
        private boolean enabled = true;

        /** A JDBC URL with a direct connection to the same PostgreSQL database, to listen on when the application's DataSource goes through a pooler in transaction mode. Unset: listen on the application's DataSource. */
        private String url;

        /** The user of the listening connection; unset: the URL's own (its user parameter). */
        private String username;

        /** The password of the listening connection; unset: the URL's own. */
        private String password;

        void applyTo(ErrandBuilder builder) {
            builder.notifications(enabled);
            if (url != null && !url.isBlank()) {
                builder.notificationDataSource(new DriverManagerDataSource(url, username, password));
            }
        }

        private void check(Errors errors) {
            if (url != null && !url.isBlank() && !url.startsWith("jdbc:postgresql:")) {
                errors.rejectValue(
                        "notifications.url",
                        "errand.invalid",
                        "errand.notifications.url must be a PostgreSQL JDBC URL with a direct connection to the"
                                + " database (jdbc:postgresql://host:5432/db), got '" + url + "'");
            }
        }

        /** Whether nodes listen for wake-ups. */
        public boolean isEnabled() {
            return enabled;
        }

        /** Sets whether nodes listen for wake-ups. */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /** The JDBC URL to listen on, or null. */
        public String getUrl() {
            return url;
        }

        /** Sets the JDBC URL to listen on. */
        public void setUrl(String url) {
            this.url = url;
        }

        /** The listening connection's user, or null. */
        public String getUsername() {
            return username;
        }

        /** Sets the listening connection's user. */
        public void setUsername(String username) {
            this.username = username;
        }

        /** The listening connection's password, or null. */
        public String getPassword() {
            return password;
        }

        /** Sets the listening connection's password. */
        public void setPassword(String password) {
            this.password = password;
        }
    }

    /** Settings of the persistent {@code TaskExecutor}. */
    public static class TaskExecutor {

        /** Whether to register the errandTaskExecutor bean when a PersistentRunnables bean exists. */
        private boolean enabled = true;

        /** The queue that runnables persisted by the errandTaskExecutor go to; it must be declared in errand.queues (or be "default" when none is). */
        private String queue = "default";

        private void check(Errors errors) {
            if (queue == null || queue.isBlank() || queue.length() > 100) {
                reject(
                        errors,
                        "taskExecutor.queue",
                        "errand.task-executor.queue must be 1 to 100 non-blank characters," + " got "
                                + (queue == null ? "null" : "\"" + queue + "\""));
            }
        }

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

    /** Settings of the processing logs that the attempt history keeps with each attempt. */
    public static class ProcessingLogs {

        /**
         * Whether each attempt keeps its processing log: the lines its handler writes with TaskContext.log, and
         * the log events of its thread (captured through Logback).
         */
        private boolean enabled = true;

        /** Whether processing logs are kept. */
        public boolean isEnabled() {
            return enabled;
        }

        /** Sets whether processing logs are kept. */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }

    /** Settings of enqueueing through {@code ErrandClient}. */
    public static class Enqueue {

        /**
         * Whether ErrandClient refuses to enqueue outside a Spring-managed transaction, as
         * Propagation.MANDATORY does. Off by default: outside a transaction a task commits on its own.
         */
        private boolean requireTransaction;

        /** Whether an enqueue outside a transaction is refused. */
        public boolean isRequireTransaction() {
            return requireTransaction;
        }

        /** Sets whether an enqueue outside a transaction is refused. */
        public void setRequireTransaction(boolean requireTransaction) {
            this.requireTransaction = requireTransaction;
        }
    }

    /** One recurring schedule declared in properties. */
    public static class ScheduleSpec {

        /** The kind of the tasks it enqueues; a kind this application registers. */
        private String kind;

        /** A cron expression of 5 fields, or 6 with the seconds first; set this or every. */
        private String cron;

        /** A fixed interval between slots, 1s to 366d; set this or cron. */
        private Duration every;

        /** The time zone a cron expression is read in. */
        private String zone = "UTC";

        /** The queue of the tasks. */
        private String queue = ErrandSettings.DEFAULT_QUEUE;

        /** What happens to slots missed while no node could fire them: skip, run-once or run-all. */
        private MisfirePolicy misfire = MisfirePolicy.SKIP;

        /** With misfire run-all: the most missed slots fired at once, 1 to 1000. */
        private int misfireLimit = 1;

        /** The payload of every task, as properties that are written as a JSON object. */
        private Map<String, Object> payload;

        Schedule build(String name) {
            if ((cron == null) == (every == null)) {
                throw new IllegalArgumentException("set either cron (for example \"0 2 * * *\") or every (for"
                        + " example 5m), not " + (cron == null ? "neither" : "both"));
            }
            Schedule.Builder builder =
                    cron != null ? Schedule.cron(name, kind, cron) : Schedule.every(name, kind, every);
            builder.zone(zone).queue(queue).payload(payload == null || payload.isEmpty() ? null : payload);
            if (misfire == MisfirePolicy.RUN_ALL) {
                builder.runAllMissed(misfireLimit);
            } else {
                builder.misfire(misfire);
            }
            return builder.build();
        }

        /** The kind of the tasks. */
        public String getKind() {
            return kind;
        }

        /** Sets the kind of the tasks. */
        public void setKind(String kind) {
            this.kind = kind;
        }

        /** The cron expression. */
        public String getCron() {
            return cron;
        }

        /** Sets the cron expression. */
        public void setCron(String cron) {
            this.cron = cron;
        }

        /** The interval. */
        public Duration getEvery() {
            return every;
        }

        /** Sets the interval. */
        public void setEvery(Duration every) {
            this.every = every;
        }

        /** The time zone. */
        public String getZone() {
            return zone;
        }

        /** Sets the time zone. */
        public void setZone(String zone) {
            this.zone = zone;
        }

        /** The queue. */
        public String getQueue() {
            return queue;
        }

        /** Sets the queue. */
        public void setQueue(String queue) {
            this.queue = queue;
        }

        /** The misfire policy. */
        public MisfirePolicy getMisfire() {
            return misfire;
        }

        /** Sets the misfire policy. */
        public void setMisfire(MisfirePolicy misfire) {
            this.misfire = misfire;
        }

        /** The misfire limit. */
        public int getMisfireLimit() {
            return misfireLimit;
        }

        /** Sets the misfire limit. */
        public void setMisfireLimit(int misfireLimit) {
            this.misfireLimit = misfireLimit;
        }

        /** The payload. */
        public Map<String, Object> getPayload() {
            return payload;
        }

        /** Sets the payload. */
        public void setPayload(Map<String, Object> payload) {
            this.payload = payload;
        }
    }
}
