package dev.errand;

import dev.errand.clock.DatabaseClock;
import dev.errand.events.TaskListener;
import dev.errand.events.TaskListeners;
import dev.errand.transaction.TransactionRunner;
import dev.errand.retry.RetryPolicy;
import dev.errand.schema.TablePrefix;
import java.time.Duration;
import java.util.Map;

/**
 * The validated, immutable settings of one Errand instance, as {@link ErrandBuilder} collected them.
 * Engine components read them; applications set them on the builder.
 */
public final class ErrandSettings {

    private final String nodeId;
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
    private final Duration unknownKindRetryDelay;
    private final int defaultMaxAttempts;
    private final RetryPolicy defaultRetryPolicy;
    private final TablePrefix tablePrefix;
    private final boolean migrationsEnabled;
    private final DatabaseClock clock;
    private final TransactionRunner transactionRunner;
    private final TaskListener listener;

    ErrandSettings(ErrandBuilder builder) {
        this.nodeId = builder.nodeId;
        this.queues = Map.copyOf(builder.queues);
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
        this.unknownKindRetryDelay = builder.unknownKindRetryDelay;
        this.defaultMaxAttempts = builder.defaultMaxAttempts;
        this.defaultRetryPolicy = builder.defaultRetryPolicy;
        this.tablePrefix = builder.tablePrefix;
        this.migrationsEnabled = builder.migrationsEnabled;
        this.clock = builder.clock;
        this.transactionRunner = builder.transactionRunner;
        this.listener = new TaskListeners(builder.listeners);
    }

    /** This node's id, stored as {@code lease_owner} on the tasks it claims. */
    public String nodeId() {
        return nodeId;
    }

    /** The queues and their worker concurrency. */
    public Map<String, Integer> queues() {
        return queues;
    }

    /** Whether this node runs tasks, or only enqueues them. */
    public boolean processingEnabled() {
        return processingEnabled;
    }

    /** The longest a poller sleeps without a wake-up. */
    public Duration pollInterval() {
        return pollInterval;
    }

    /** The most tasks one claim statement takes. */
    public int claimBatchSize() {
        return claimBatchSize;
    }

    /** The most claimed tasks a queue keeps waiting for a free worker. */
    public int prefetch() {
        return prefetch;
    }

    /** The default lease of a claimed task. */
    public Duration leaseDuration() {
        return leaseDuration;
    }

    /** How often the node extends the leases of its running non-transactional tasks. */
    public Duration heartbeatInterval() {
        return heartbeatInterval;
    }

    /** The longest a non-transactional completion waits in the buffer before it is flushed. */
    public Duration completionFlushInterval() {
        return completionFlushInterval;
    }

    /** The most completions flushed in one statement. */
    public int completionBatchSize() {
        return completionBatchSize;
    }

    /** How often the node looks for expired leases. */
    public Duration rescueInterval() {
        return rescueInterval;
    }

    /** How long a graceful stop waits for running tasks. */
    public Duration shutdownTimeout() {
        return shutdownTimeout;
    }

    /** How long succeeded tasks are kept, or {@code null} to delete them at once. */
    public Duration succeededRetention() {
        return succeededRetention;
    }

    /** How often expired succeeded tasks are pruned. */
    public Duration pruneInterval() {
        return pruneInterval;
    }

    /** The delay before another attempt of a task whose kind this node does not know. */
    public Duration unknownKindRetryDelay() {
        return unknownKindRetryDelay;
    }

    /** Maximum attempts for tasks whose kind and request set none. */
    public int defaultMaxAttempts() {
        return defaultMaxAttempts;
    }

    /** Retry policy for kinds that set none. */
    public RetryPolicy defaultRetryPolicy() {
        return defaultRetryPolicy;
    }

    /** The table prefix. */
    public TablePrefix tablePrefix() {
        return tablePrefix;
    }

    /** Whether Errand applies its own migrations. */
    public boolean migrationsEnabled() {
        return migrationsEnabled;
    }

    /** The clock every statement reads. */
    public DatabaseClock clock() {
        return clock;
    }

    /** Who runs the transactions of transactional handlers and failure callbacks. */
    public TransactionRunner transactionRunner() {
        return transactionRunner;
    }

    /** The listeners, as one. */
    public TaskListener listener() {
        return listener;
    }
}
