package dev.errand;

import dev.errand.claim.ClaimStrategies;
import dev.errand.clock.DatabaseClock;
import dev.errand.store.Dialect;
import dev.errand.store.Dialects;
import dev.errand.json.PayloadCodec;
import dev.errand.retry.RetryPolicy;
import dev.errand.schema.TablePrefix;
import dev.errand.task.TaskDefinition;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import dev.errand.events.TaskListener;
import dev.errand.transaction.TransactionRunner;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * Configures and builds an {@link Errand}. Every setter checks its argument at once and says what it
 * accepts. Defaults suit a small service: one queue {@code default} with 4 workers, 500 ms polling,
 * 60 s leases with 10 s heartbeats, 5 attempts with exponential back-off from 1 s up to 1 h.
 */
public final class ErrandBuilder {

    /** Name of the queue used when a request names none. */
    public static final String DEFAULT_QUEUE = "default";

    private final DataSource dataSource;
    private final Map<String, TaskDefinition<?>> definitions = new LinkedHashMap<>();
    String nodeId = defaultNodeId();
    final Map<String, Integer> queues = new LinkedHashMap<>();
    boolean processingEnabled = true;
    Duration pollInterval = Duration.ofMillis(500);
    int claimBatchSize = 500;
    int prefetch = 1_000;
    Duration leaseDuration = Duration.ofSeconds(60);
    Duration heartbeatInterval = Duration.ofSeconds(10);
    Duration completionFlushInterval = Duration.ofMillis(5);
    int completionBatchSize = 500;
    Duration rescueInterval = Duration.ofSeconds(15);
    Duration shutdownTimeout = Duration.ofSeconds(30);
    Duration succeededRetention;
    Duration pruneInterval = Duration.ofMinutes(5);
    Duration unknownKindRetryDelay = Duration.ofMinutes(1);
    int defaultMaxAttempts = 5;
    RetryPolicy defaultRetryPolicy = RetryPolicy.exponential(Duration.ofSeconds(1), Duration.ofHours(1));
    TablePrefix tablePrefix = TablePrefix.DEFAULT;
    boolean migrationsEnabled = true;
    DatabaseClock clock = DatabaseClock.database();
    PayloadCodec codec = new PayloadCodec();
    TransactionRunner transactionRunner = TransactionRunner.jdbc();
    ClaimStrategies.Factory claimStrategy = ClaimStrategies.skipLocked();
    Dialect dialect;
    final List<TaskListener> listeners = new ArrayList<>();

    ErrandBuilder(DataSource dataSource) {
        if (dataSource == null) {
            throw new IllegalArgumentException("Errand needs the application's DataSource; got null");
        }
        this.dataSource = dataSource;
    }

    /** Registers a task kind. Each kind may be registered once. */
    public ErrandBuilder register(TaskDefinition<?> definition) {
        if (definition == null) {
            throw new IllegalArgumentException("definition must not be null: build one with TaskDefinition.builder");
        }
        if (definitions.putIfAbsent(definition.kind(), definition) != null) {
            throw new IllegalArgumentException("Task kind '" + definition.kind() + "' is registered twice;"
                    + " each kind needs exactly one handler");
        }
        return this;
    }

    /**
     * Declares a queue and how many of its tasks this node runs at once. Enqueueing into an undeclared
     * queue is rejected.
     *
     * @throws IllegalArgumentException if the name is blank or longer than 100 characters, or the
     *     concurrency is outside 1..1000
     */
    public ErrandBuilder queue(String name, int concurrency) {
        if (name == null || name.isBlank() || name.length() > 100) {
            throw new IllegalArgumentException("Queue name must be 1 to 100 non-blank characters, got "
                    + (name == null ? "null" : "\"" + name + "\""));
        }
        requireRange("concurrency of queue '" + name + "'", concurrency, 1, 1000);
        queues.put(name, concurrency);
        return this;
    }

    /** Sets this node's id (default: host name, process id and a random suffix). */
    public ErrandBuilder nodeId(String nodeId) {
        if (nodeId == null || nodeId.isBlank() || nodeId.length() > 200) {
            throw new IllegalArgumentException("nodeId must be 1 to 200 non-blank characters, got " + nodeId);
        }
        this.nodeId = nodeId;
        return this;
    }

    /** Turns running tasks on or off; a node with processing off only enqueues (default on). */
    public ErrandBuilder processingEnabled(boolean enabled) {
        this.processingEnabled = enabled;
        return this;
    }

    /** Sets the longest a poller sleeps without a wake-up (10 ms to 1 h; default 500 ms). */
    public ErrandBuilder pollInterval(Duration interval) {
        this.pollInterval = requireDuration("pollInterval", interval, Duration.ofMillis(10), Duration.ofHours(1));
        return this;
    }

    /** Sets the most tasks one claim statement takes (1..10000; default 500). */
    public ErrandBuilder claimBatchSize(int size) {
        this.claimBatchSize = requireRange("claimBatchSize", size, 1, 10_000);
        return this;
    }

    /**
     * Sets the most claimed tasks a queue keeps waiting for a free worker (0..10000; default 1000). The
     * poller keeps about as many as the queue completed in the last 200 ms, up to this, so that fast
     * tasks are claimed in large batches while slow tasks are not hoarded. The waiting tasks hold
     * heartbeated leases and are released on shutdown. 0 claims only for free workers.
     */
    public ErrandBuilder prefetch(int tasks) {
        this.prefetch = requireRange("prefetch", tasks, 0, 10_000);
        return this;
    }

    /** Sets the default lease (1 s to 24 h; default 60 s); it must be at least twice the heartbeat interval. */
    public ErrandBuilder leaseDuration(Duration lease) {
        this.leaseDuration = requireDuration("leaseDuration", lease, Duration.ofSeconds(1), Duration.ofHours(24));
        return this;
    }

    /** Sets how often leases are extended (100 ms to 1 h; default 10 s). */
    public ErrandBuilder heartbeatInterval(Duration interval) {
        this.heartbeatInterval = requireDuration("heartbeatInterval", interval, Duration.ofMillis(100),
                Duration.ofHours(1));
        return this;
    }

    /** Sets the longest a completion waits before it is flushed (1 ms to 10 s; default 5 ms). */
    public ErrandBuilder completionFlushInterval(Duration interval) {
        this.completionFlushInterval = requireDuration("completionFlushInterval", interval, Duration.ofMillis(1),
                Duration.ofSeconds(10));
        return this;
    }

    /** Sets the most completions flushed in one statement (1..10000; default 500). */
    public ErrandBuilder completionBatchSize(int size) {
        this.completionBatchSize = requireRange("completionBatchSize", size, 1, 10_000);
        return this;
    }

    /** Sets how often expired leases are looked for (100 ms to 1 h; default 15 s). */
    public ErrandBuilder rescueInterval(Duration interval) {
        this.rescueInterval = requireDuration("rescueInterval", interval, Duration.ofMillis(100), Duration.ofHours(1));
        return this;
    }

    /** Sets how long a graceful stop waits for running tasks (0 to 1 h; default 30 s). */
    public ErrandBuilder shutdownTimeout(Duration timeout) {
        this.shutdownTimeout = requireDuration("shutdownTimeout", timeout, Duration.ZERO, Duration.ofHours(1));
        return this;
    }

    /**
     * Keeps succeeded tasks for {@code retention} (1 s to 3650 days) instead of deleting them; the pruner
     * removes them afterwards. {@code null} turns retention off (the default).
     */
    public ErrandBuilder succeededRetention(Duration retention) {
        this.succeededRetention = retention == null ? null
                : requireDuration("succeededRetention", retention, Duration.ofSeconds(1), Duration.ofDays(3650));
        return this;
    }

    /** Sets how often the pruner runs when retention is on (1 s to 24 h; default 5 min). */
    public ErrandBuilder pruneInterval(Duration interval) {
        this.pruneInterval = requireDuration("pruneInterval", interval, Duration.ofSeconds(1), Duration.ofHours(24));
        return this;
    }

    /** Sets the delay before retrying a task whose kind this node does not know (0 to 24 h; default 1 min). */
    public ErrandBuilder unknownKindRetryDelay(Duration delay) {
        this.unknownKindRetryDelay = requireDuration("unknownKindRetryDelay", delay, Duration.ZERO,
                Duration.ofHours(24));
        return this;
    }

    /** Sets the maximum attempts for tasks whose kind and request set none (1..1000; default 5). */
    public ErrandBuilder defaultMaxAttempts(int maxAttempts) {
        this.defaultMaxAttempts = requireRange("defaultMaxAttempts", maxAttempts, 1, 1000);
        return this;
    }

    /** Sets the retry policy for kinds that set none. */
    public ErrandBuilder defaultRetryPolicy(RetryPolicy policy) {
        if (policy == null) {
            throw new IllegalArgumentException("defaultRetryPolicy must not be null: use RetryPolicy.fixed,"
                    + " exponential or delays");
        }
        this.defaultRetryPolicy = policy;
        return this;
    }

    /** Sets the table prefix (default {@code errand_}); see {@link TablePrefix} for what is accepted. */
    public ErrandBuilder tablePrefix(String prefix) {
        this.tablePrefix = new TablePrefix(prefix);
        return this;
    }

    /** Turns Errand's own migrations on or off (default on); off for teams that run the DDL themselves. */
    public ErrandBuilder migrationsEnabled(boolean enabled) {
        this.migrationsEnabled = enabled;
        return this;
    }

    /** Sets the clock; tests pass {@link DatabaseClock#shiftable()} to move time. */
    public ErrandBuilder clock(DatabaseClock clock) {
        if (clock == null) {
            throw new IllegalArgumentException("clock must not be null: use DatabaseClock.database()");
        }
        this.clock = clock;
        return this;
    }

    /** Sets the payload codec, for an application's own Jackson mapper. */
    public ErrandBuilder payloadCodec(PayloadCodec codec) {
        if (codec == null) {
            throw new IllegalArgumentException("codec must not be null: use new PayloadCodec()");
        }
        this.codec = codec;
        return this;
    }

    /**
     * Sets who runs the transactions of transactional handlers and failure callbacks (default: plain
     * JDBC). The Spring Boot starter sets one backed by the application's transaction manager.
     */
    public ErrandBuilder transactionRunner(TransactionRunner runner) {
        if (runner == null) {
            throw new IllegalArgumentException("transactionRunner must not be null: use TransactionRunner.jdbc()");
        }
        this.transactionRunner = runner;
        return this;
    }

    /**
     * Sets how pollers claim tasks (default {@link ClaimStrategies#skipLocked()}); use
     * {@link ClaimStrategies#optimisticVersion()} where {@code SKIP LOCKED} is not available.
     */
    public ErrandBuilder claimStrategy(ClaimStrategies.Factory factory) {
        if (factory == null) {
            throw new IllegalArgumentException("claimStrategy must not be null: use ClaimStrategies.skipLocked()"
                    + " or ClaimStrategies.optimisticVersion()");
        }
        this.claimStrategy = factory;
        return this;
    }

    /**
     * Sets the dialect instead of detecting it from JDBC metadata: one of {@code postgresql},
     * {@code mariadb}, {@code mysql}, {@code h2}.
     *
     * @throws IllegalArgumentException for any other name
     */
    public ErrandBuilder dialect(String name) {
        this.dialect = Dialects.named(name);
        return this;
    }

    /** Adds a listener that hears what happens to tasks on this node, for metrics or logs. */
    public ErrandBuilder listener(TaskListener listener) {
        if (listener == null) {
            throw new IllegalArgumentException("listener must not be null: implement TaskListener");
        }
        listeners.add(listener);
        return this;
    }

    /**
     * Builds the instance: detects the dialect and, unless turned off, applies the migrations. Call
     * {@link Errand#start()} to begin running tasks.
     *
     * @throws IllegalArgumentException if the settings contradict each other
     * @throws IllegalStateException if the database is not supported or cannot be migrated
     */
    public Errand build() {
        if (queues.isEmpty()) {
            queues.put(DEFAULT_QUEUE, 4);
        }
        requireLeaseCoversHeartbeats("leaseDuration", leaseDuration);
        for (TaskDefinition<?> definition : definitions.values()) {
            if (definition.leaseDuration() != null) {
                requireLeaseCoversHeartbeats("leaseDuration of kind '" + definition.kind() + "'",
                        definition.leaseDuration());
            }
        }
        return new Errand(dataSource, new ErrandSettings(this), Map.copyOf(definitions), codec,
                dialect != null ? dialect : Dialects.detect(dataSource), claimStrategy);
    }

    private void requireLeaseCoversHeartbeats(String name, Duration lease) {
        if (lease.compareTo(heartbeatInterval.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException(name + " (" + lease + ") must be at least twice heartbeatInterval ("
                    + heartbeatInterval + "), or a slow heartbeat would let healthy tasks be rescued");
        }
    }

    private static int requireRange(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be between " + min + " and " + max + ", got " + value);
        }
        return value;
    }

    private static Duration requireDuration(String name, Duration value, Duration min, Duration max) {
        if (value == null || value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            throw new IllegalArgumentException(name + " must be between " + min + " and " + max + ", got " + value);
        }
        return value;
    }

    private static String defaultNodeId() {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            host = "host";
        }
        String id = host + "-" + ManagementFactory.getRuntimeMXBean().getPid() + "-"
                + UUID.randomUUID().toString().substring(0, 8);
        return id.length() > 200 ? id.substring(0, 200) : id;
    }
}
