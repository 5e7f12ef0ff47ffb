package dev.errand;

import dev.errand.config.ClaimOrder;
import dev.errand.config.ErrandSettings;
import dev.errand.config.NodeIds;
import dev.errand.config.Setting;
import dev.errand.config.Settings;
import dev.errand.config.TablePrefix;
import dev.errand.error.ErrandException;
import dev.errand.internal.claim.DialectClaimEnvironment;
import dev.errand.internal.engine.Kinds;
import dev.errand.internal.engine.TaskListeners;
import dev.errand.internal.node.Node;
import dev.errand.internal.process.ProcessRegistry;
import dev.errand.internal.schedule.ScheduleChecks;
import dev.errand.internal.schema.SchemaMigrator;
import dev.errand.internal.store.Dialect;
import dev.errand.internal.store.Dialects;
import dev.errand.internal.wakeup.ListenerStart;
import dev.errand.internal.wakeup.Listening;
import dev.errand.process.ProcessDefinition;
import dev.errand.retry.RetryPolicy;
import dev.errand.schedule.Schedule;
import dev.errand.spi.ClaimStrategy;
import dev.errand.spi.DatabaseClock;
import dev.errand.spi.PayloadCodec;
import dev.errand.spi.TaskListener;
import dev.errand.spi.TaskTracing;
import dev.errand.spi.TransactionRunner;
import dev.errand.task.TaskDefinition;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * Configures and builds an {@link Errand}. Every setter checks its argument at once against
 * {@link Settings} and says what it accepts. Defaults suit a small service: one queue {@code default}
 * with 4 workers, 500 ms polling, 60 s leases with 10 s heartbeats, 5 attempts with exponential
 * back-off from 1 s up to 1 h.
 */
public final class ErrandBuilder {

    private final DataSource dataSource;
    private final Map<String, TaskDefinition<?>> definitions = new LinkedHashMap<>();
    private final Map<String, Schedule> schedules = new LinkedHashMap<>();
    private final ErrandSettings.Builder settings = ErrandSettings.builder(defaultNodeId());
    private final List<TaskListener> listeners = new ArrayList<>();
    private TaskTracing tracing = TaskTracing.NONE;
    private final ProcessRegistry processes = new ProcessRegistry();
    private PayloadCodec codec = new PayloadCodec();
    private TransactionRunner transactionRunner = TransactionRunner.jdbc();
    private Listening listening = Listening.DEFAULT;
    private ClaimStrategy.Factory claimStrategy = ClaimStrategies.skipLocked();
    private Dialect dialect;

    ErrandBuilder(DataSource dataSource) {
        if (dataSource == null) {
            throw new IllegalArgumentException("Errand needs the application's DataSource; got null");
        }
        this.dataSource = dataSource;
    }

    /**
     * Declares a recurring schedule. {@link #build()} stores it, or changes the stored one of the same name,
     * so that every node that declares it agrees. Its kind must be registered and its queue declared on this
     * node, and its payload must fit the kind's payload type, as for an enqueue; {@link #build()} checks them
     * before it touches the database.
     *
     * @throws IllegalArgumentException if the schedule is null or its name is declared twice
     */
    public ErrandBuilder schedule(Schedule schedule) {
        if (schedule == null) {
            throw new IllegalArgumentException(
                    "schedule must not be null: build one with Schedule.cron(...) or" + " Schedule.every(...)");
        }
        if (schedules.putIfAbsent(schedule.name(), schedule) != null) {
            throw new IllegalArgumentException(
                    "Schedule '" + schedule.name() + "' is declared twice; give each" + " schedule a unique name");
        }
        return this;
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
     * Registers a distributed process: this node can then create it, run its batches and analyse its turns (two
     * task kinds, {@code errand:process:<name>:batch} and {@code errand:process:<name>:turn}, in the queue each
     * process request names). Each process may be registered once.
     *
     * @throws IllegalArgumentException if the definition is null or its name is registered already
     */
    public ErrandBuilder registerProcess(ProcessDefinition<?> definition) {
        processes.add(definition).forEach(this::register);
        return this;
    }

    /**
     * Declares a queue and how many of its tasks this node runs at once. Enqueueing into an undeclared
     * queue is rejected. Without any declaration the node has one queue, {@code default}, with 4 workers.
     *
     * @throws IllegalArgumentException if the name is not 1 to 100 plain characters, or the concurrency
     *     is outside {@link Settings#CONCURRENCY}'s range
     */
    public ErrandBuilder queue(String name, int concurrency) {
        settings.queue(name, concurrency);
        return this;
    }

    /**
     * Limits how many tasks of a declared queue run at once across the whole cluster, whatever the number of
     * nodes (a queue's concurrency is per node). A task held back stays pending and spends no attempt. Enforced in
     * the claim's transaction, like a kind's limit; {@code Errand.flow()} changes it at run time. See
     * docs/FLOW-CONTROL.md.
     *
     * @param name a queue declared with {@link #queue(String, int)} (checked by {@link #build()})
     * @param maxRunning the most of its tasks running at once, 1 to 10,000
     * @throws IllegalArgumentException if the name is invalid or the limit out of range
     */
    public ErrandBuilder queueConcurrencyLimit(String name, int maxRunning) {
        settings.queueConcurrencyLimit(name, maxRunning);
        return this;
    }

    /**
     * Limits how many tasks of a declared queue start in any window of {@code period} across the whole cluster, on
     * the database clock, whatever their kind: for example {@code queueRateLimit("partner", 100,
     * Duration.ofMinutes(1))}. A task held back stays pending and spends no attempt. It may stand beside a
     * {@link #queueConcurrencyLimit} of the same queue and the limits of its kinds; a task starts when it has a slot
     * of each. {@code Errand.flow()} changes it at run time. See docs/FLOW-CONTROL.md.
     *
     * @param name a queue declared with {@link #queue(String, int)} (checked by {@link #build()})
     * @param starts the most starts per period, 1 to 10,000
     * @param period the window, 1 ms to 24 h, in whole milliseconds
     * @throws IllegalArgumentException if the name is invalid or the limit out of range
     */
    public ErrandBuilder queueRateLimit(String name, int starts, java.time.Duration period) {
        settings.queueRateLimit(name, new dev.errand.flow.RateLimit(starts, period));
        return this;
    }

    /**
     * Sets any node setting of the table, one of {@link Settings#nodeSettings()}, with the checks of the setter of
     * the same name; for hosts that read the settings from their own configuration, as the Spring Boot starter
     * does. {@code null} is accepted only where unset is the setting's default, such as a retention that is off.
     *
     * @throws IllegalArgumentException if the value is outside the setting's range, or the setting is not one
     *     of the node settings
     */
    public <T extends Comparable<? super T>> ErrandBuilder set(Setting<T> setting, T value) {
        settings.set(setting, value);
        return this;
    }

    /**
     * Sets the prefix of this node's thread names (default {@code errand-}), so that thread dumps and logs
     * tell them apart from the application's: 1 to 40 characters, no control characters.
     *
     * @throws IllegalArgumentException for a blank, padded or too long prefix
     */
    public ErrandBuilder threadNamePrefix(String prefix) {
        settings.threadNamePrefix(prefix);
        return this;
    }

    /**
     * Sets this node's id: 1 to 200 characters (default: host name, process id and a random part, new at each
     * start; see {@link #nodeIdFromHost} for an id that stays the same across restarts).
     */
    public ErrandBuilder nodeId(String nodeId) {
        settings.nodeId(nodeId);
        return this;
    }

    /**
     * Sets a stable node id, {@code <host name>-<suffix>} ({@link NodeIds#of}), so that a restarted node takes its
     * row in the registry back instead of adding one. Two nodes that run on one host at once need different
     * suffixes (for example {@code api} and {@code worker}, or an instance number).
     *
     * @param suffix 1 to 50 letters, digits, {@code .}, {@code _} or {@code -}
     * @throws IllegalArgumentException for a bad suffix
     * @throws IllegalStateException if the platform gives no host name; set {@link #nodeId} instead
     */
    public ErrandBuilder nodeIdFromHost(String suffix) {
        NodeIds.requireSuffix(suffix);
        String host = NodeIds.hostName()
                .orElseThrow(() -> new IllegalStateException("nodeIdFromHost(\"" + suffix + "\"): this platform gives"
                        + " no host name (neither the local host's name nor HOSTNAME or COMPUTERNAME); set nodeId(...)"
                        + " instead"));
        settings.nodeId(NodeIds.of(host, suffix));
        return this;
    }

    /**
     * Runs handlers on virtual threads (default off; Java 21 and later, refused on an older JVM). A queue's
     * concurrency still bounds how many of its tasks run at once, and each running task still holds a connection
     * while it writes, so the pool size bounds them too. See {@code docs/CONFIGURATION.md}.
     */
    public ErrandBuilder virtualThreads(boolean enabled) {
        settings.virtualThreads(enabled);
        return this;
    }

    /** Turns running tasks on or off; a node with processing off only enqueues and administers (default on). */
    public ErrandBuilder processingEnabled(boolean enabled) {
        settings.processingEnabled(enabled);
        return this;
    }

    /**
     * Sets the node groups this node serves: tasks pinned to one of them may run here. Names are 1 to 200
     * characters, without commas or control characters.
     *
     * @throws IllegalArgumentException for a null array or a bad name
     */
    public ErrandBuilder nodeGroups(String... groups) {
        if (groups == null) {
            throw new IllegalArgumentException("nodeGroups must not be null; call it with no arguments for none");
        }
        settings.nodeGroups(Arrays.asList(groups));
        return this;
    }

    /**
     * Makes this node exclusive: it claims only tasks pinned to it or to its groups, never unpinned ones
     * (default false). Conflicts with {@code processingEnabled(false)}.
     */
    public ErrandBuilder exclusive(boolean exclusive) {
        settings.exclusive(exclusive);
        return this;
    }

    /** {@link Settings#DEAD_NODE_TIMEOUT}: how old a heartbeat may be before the node is dead (default 30 s). */
    public ErrandBuilder deadNodeTimeout(Duration timeout) {
        settings.deadNodeTimeout(timeout);
        return this;
    }

    /**
     * {@link Settings#LEADER_LEASE}: how long the leader's lease lasts without renewal (default 3 s; 400 ms to 1 h).
     * Every node tries to take or renew it each quarter of it, so a dead leader is replaced within about 1.25 leases.
     */
    public ErrandBuilder leaderLease(Duration lease) {
        settings.leaderLease(lease);
        return this;
    }

    /**
     * {@link Settings#NODE_RETENTION}: how long the registry keeps the row of a stopped or dead node before the
     * leader deletes it (default 7 days; 1 minute to 3650 days).
     */
    public ErrandBuilder nodeRetention(Duration retention) {
        settings.nodeRetention(retention);
        return this;
    }

    /** {@link Settings#STARTUP_DELAY}: how long a started node waits before its first claim (default 0). */
    public ErrandBuilder startupDelay(Duration delay) {
        settings.startupDelay(delay);
        return this;
    }

    /** {@link Settings#MINIMUM_POLL_INTERVAL}: the shortest time between two empty claims of a queue (default 0). */
    public ErrandBuilder minimumPollInterval(Duration interval) {
        settings.minimumPollInterval(interval);
        return this;
    }

    /** {@link Settings#POLL_INTERVAL}: the longest a poller sleeps without a wake-up (default 500 ms). */
    public ErrandBuilder pollInterval(Duration interval) {
        settings.pollInterval(interval);
        return this;
    }

    /** {@link Settings#CLAIM_BATCH_SIZE}: the most tasks one claim statement takes (default 500). */
    public ErrandBuilder claimBatchSize(int size) {
        settings.claimBatchSize(size);
        return this;
    }

    /**
     * {@link Settings#PREFETCH}: the most claimed tasks a queue keeps waiting for a free worker (default
     * 1000). The poller keeps about as many as the queue completed in the last 200 ms, up to this, so
     * that fast tasks are claimed in large batches while slow tasks are not hoarded. The waiting tasks
     * hold heartbeated leases and are released on shutdown. 0 claims only for free workers.
     */
    public ErrandBuilder prefetch(int tasks) {
        settings.prefetch(tasks);
        return this;
    }

    /** {@link Settings#LEASE_DURATION}: the default lease (default 60 s); at least twice the heartbeat interval. */
    public ErrandBuilder leaseDuration(Duration lease) {
        settings.leaseDuration(lease);
        return this;
    }

    /** {@link Settings#HEARTBEAT_INTERVAL}: how often leases are extended (default 10 s). */
    public ErrandBuilder heartbeatInterval(Duration interval) {
        settings.heartbeatInterval(interval);
        return this;
    }

    /** {@link Settings#COMPLETION_FLUSH_INTERVAL}: the longest a completion waits before it is flushed (default 5 ms). */
    public ErrandBuilder completionFlushInterval(Duration interval) {
        settings.completionFlushInterval(interval);
        return this;
    }

    /** {@link Settings#COMPLETION_BATCH_SIZE}: the most completions flushed in one statement (default 500). */
    public ErrandBuilder completionBatchSize(int size) {
        settings.completionBatchSize(size);
        return this;
    }

    /** {@link Settings#RESCUE_INTERVAL}: how often expired leases are looked for (default 15 s). */
    public ErrandBuilder rescueInterval(Duration interval) {
        settings.rescueInterval(interval);
        return this;
    }

    /** {@link Settings#SHUTDOWN_TIMEOUT}: how long a graceful stop waits for running tasks (default 30 s). */
    public ErrandBuilder shutdownTimeout(Duration timeout) {
        settings.shutdownTimeout(timeout);
        return this;
    }

    /**
     * {@link Settings#SUCCEEDED_RETENTION}: keeps succeeded tasks for {@code retention} instead of
     * deleting them; the pruner removes them afterwards. {@code null} turns retention off (the default).
     */
    public ErrandBuilder succeededRetention(Duration retention) {
        settings.succeededRetention(retention);
        return this;
    }

    /**
     * {@link Settings#PREMATURE_EVENT_RETENTION}: deletes premature events last triggered more than
     * {@code retention} ago, every prune interval. {@code null} keeps them (the default).
     */
    public ErrandBuilder prematureEventRetention(Duration retention) {
        settings.prematureEventRetention(retention);
        return this;
    }

    /**
     * Whether every ended attempt is recorded in the attempt history, in the transaction that records its
     * outcome (default false: on PostgreSQL it costs about a sixth of burn-down throughput). See
     * {@link Errand#history()}.
     */
    public ErrandBuilder historyEnabled(boolean enabled) {
        settings.historyEnabled(enabled);
        return this;
    }

    /**
     * Whether each attempt keeps its processing log in the attempt history (default true): the lines its
     * handler writes with {@code TaskContext.log}, and the log events of its thread where a logging
     * integration captures them (the Spring Boot starter does, for Logback).
     */
    public ErrandBuilder processingLogsEnabled(boolean enabled) {
        settings.processingLogsEnabled(enabled);
        return this;
    }

    /** {@link Settings#HISTORY_RETENTION}: how long attempts are kept (default 7 days). */
    public ErrandBuilder historyRetention(Duration retention) {
        settings.historyRetention(retention);
        return this;
    }

    /**
     * {@link Settings#SCHEDULE_FIRING_PERCENT}: the most of its time, in percent, the scheduler spends firing
     * while more than 100 schedules are due at once (default 25; 100 fires without pauses).
     *
     * @throws IllegalArgumentException if {@code percent} is not between 1 and 100
     */
    public ErrandBuilder scheduleFiringPercent(int percent) {
        settings.scheduleFiringPercent(percent);
        return this;
    }

    /**
     * {@link Settings#SCHEDULE_LOOKAHEAD}: how long before its slot a schedule's task may be written (default
     * 1 minute; 0 writes each slot when it comes). Each schedule writes at its own point of this window, so
     * that many schedules on one slot do not all fire at once.
     *
     * @throws IllegalArgumentException if {@code lookahead} is null, negative or over an hour
     */
    public ErrandBuilder scheduleLookahead(Duration lookahead) {
        settings.scheduleLookahead(lookahead);
        return this;
    }

    /** {@link Settings#HISTORY_STACK_TRACE_LIMIT}: the most characters of a stack trace kept per attempt (default 4,000). */
    public ErrandBuilder historyStackTraceLimit(int limit) {
        settings.historyStackTraceLimit(limit);
        return this;
    }

    /**
     * {@link Settings#FAILED_RETENTION}: deletes failed tasks this long after they failed, every prune interval.
     * {@code null} keeps them until an operator deletes them (the default). A kind may set its own
     * ({@code TaskDefinition.Builder.retention}).
     */
    public ErrandBuilder failedRetention(Duration retention) {
        settings.failedRetention(retention);
        return this;
    }

    /**
     * {@link Settings#CANCELLED_RETENTION}: deletes cancelled tasks this long after they were cancelled.
     * {@code null} keeps them (the default).
     */
    public ErrandBuilder cancelledRetention(Duration retention) {
        settings.cancelledRetention(retention);
        return this;
    }

    /**
     * {@link Settings#BATCH_RETENTION}: deletes a batch's own rows (counters, callbacks) once it has finished
     * and its callbacks have fired, and it was created this long ago. Its tasks are pruned by their own
     * retention. {@code null} keeps them (the default).
     */
    public ErrandBuilder batchRetention(Duration retention) {
        settings.batchRetention(retention);
        return this;
    }

    /** {@link Settings#PRUNE_INTERVAL}: how often the pruners run (default 5 min). */
    public ErrandBuilder pruneInterval(Duration interval) {
        settings.pruneInterval(interval);
        return this;
    }

    /** {@link Settings#UNKNOWN_KIND_RETRY_DELAY}: the delay before retrying a task whose kind this node does not know. */
    public ErrandBuilder unknownKindRetryDelay(Duration delay) {
        settings.unknownKindRetryDelay(delay);
        return this;
    }

    /** {@link Settings#DEFAULT_MAX_ATTEMPTS}: the maximum attempts of tasks whose kind and request set none. */
    public ErrandBuilder defaultMaxAttempts(int maxAttempts) {
        settings.defaultMaxAttempts(maxAttempts);
        return this;
    }

    /** Sets the retry policy for kinds that set none. */
    public ErrandBuilder defaultRetryPolicy(RetryPolicy policy) {
        settings.defaultRetryPolicy(policy);
        return this;
    }

    /** Sets the table prefix (default {@code errand_}); see {@link TablePrefix} for what is accepted. */
    public ErrandBuilder tablePrefix(String prefix) {
        settings.tablePrefix(new TablePrefix(prefix));
        return this;
    }

    /** Turns Errand's own migrations on or off (default on); off for teams that run the DDL themselves. */
    public ErrandBuilder migrationsEnabled(boolean enabled) {
        settings.migrationsEnabled(enabled);
        return this;
    }

    /** Sets the clock; tests pass {@link DatabaseClock#shiftable()} to move time. */
    public ErrandBuilder clock(DatabaseClock clock) {
        settings.clock(clock);
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
     * Sets the order in which this node claims due tasks (default {@link ClaimOrder#DUE_FIRST}, the task due
     * longest first within a priority). {@link ClaimOrder#FEWEST_ATTEMPTS_FIRST} takes fresh tasks before
     * retried ones of the same priority, at a cost for large backlogs. The built-in claim strategies and flow
     * control follow it; a claim strategy of the application's own keeps its own order.
     *
     * @throws IllegalArgumentException if {@code order} is null
     */
    public ErrandBuilder claimOrder(ClaimOrder order) {
        settings.claimOrder(order);
        return this;
    }

    /**
     * Sets how pollers claim tasks (default {@link ClaimStrategies#skipLocked()}); use
     * {@link ClaimStrategies#optimisticVersion()} where {@code SKIP LOCKED} is not available.
     */
    public ErrandBuilder claimStrategy(ClaimStrategy.Factory factory) {
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

    /**
     * The names {@link #dialect(String)} accepts: {@code postgresql}, {@code mariadb}, {@code mysql},
     * {@code h2}, in any case.
     */
    public static List<String> dialectNames() {
        return Dialects.NAMES;
    }

    /**
     * Links each task's attempts to the trace that enqueued it: {@code tracing} captures the trace context at
     * enqueue, Errand stores it on the task's row, and hands it back when an attempt starts. Off by default
     * ({@link TaskTracing#NONE}); the Spring Boot starter sets it up over Micrometer's Observation API.
     */
    public ErrandBuilder tracing(TaskTracing tracing) {
        if (tracing == null) {
            throw new IllegalArgumentException(
                    "tracing must not be null: pass TaskTracing.NONE to turn tracing off, or implement TaskTracing");
        }
        this.tracing = tracing;
        return this;
    }

    /**
     * Whether a node on PostgreSQL listens for wake-ups (LISTEN/NOTIFY; default true). With them a task enqueued on
     * one node starts on another within milliseconds; without, nodes find new tasks by polling each queue. At
     * {@link Errand#start()} Errand checks that a notification sent through the data source reaches its listening
     * connection; through a pooler in transaction mode it does not, and the node polls instead and says so
     * ({@link #build()} refuses such a data source while the driver prepares statements on the server; see
     * docs/DEPLOYMENT.md). False skips the check and the listener. Other databases always poll.
     */
    public ErrandBuilder notifications(boolean enabled) {
        this.listening = new Listening(enabled, listening.dataSource(), null);
        return this;
    }

    /**
     * Where a node on PostgreSQL takes its LISTEN connection from, when the application's data source goes through
     * a pooler in transaction mode (PgBouncer), which passes no notifications: a data source with a direct
     * connection to the same database (or through a pooler in session mode). It holds one connection per node, so
     * an unpooled data source serves. Default: the application's data source.
     */
    public ErrandBuilder notificationDataSource(DataSource listenOn) {
        if (listenOn == null) {
            throw new IllegalArgumentException("notificationDataSource must not be null: leave it unset to listen on"
                    + " the application's DataSource, or call notifications(false) to poll only");
        }
        this.listening = new Listening(listening.enabled(), listenOn, null);
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
     * Builds the node: detects the dialect and, unless turned off, applies the migrations. Call
     * {@link Errand#start()} to begin running tasks.
     *
     * @throws IllegalArgumentException if the settings contradict each other, or a declared schedule's kind is
     *     not registered, its queue not declared or its payload does not fit its kind
     * @throws IllegalStateException if the database is not supported or cannot be migrated
     */
    public Errand build() {
        ErrandSettings built = settings.build();
        requireSchedulesEnqueueable(built);
        for (TaskDefinition<?> definition : definitions.values()) {
            if (definition.leaseDuration() != null) {
                settings.requireLeaseCoversHeartbeats(
                        "leaseDuration of kind '" + definition.kind() + "'", definition.leaseDuration());
            }
        }
        Dialect database = dialect != null ? dialect : Dialects.detect(dataSource);
        // Before the migrations: through a transaction-mode pooler they would fail on prepared statements.
        Listening checked = database.deliversNotifications()
                ? new ListenerStart(listening, ListenerStart.PATIENCE).check(dataSource)
                : listening;
        if (built.migrationsEnabled()) {
            new SchemaMigrator(
                            dataSource,
                            built.tablePrefix(),
                            database.migrationFolder(),
                            database.unquotedIdentifier(built.tablePrefix().historyTable()),
                            dialect != null)
                    .migrate();
        }
        String table = built.tablePrefix().taskTable();
        ClaimStrategy claim = claimStrategy.create(new DialectClaimEnvironment(database, table, built.claimOrder()));
        Errand errand = new Errand(new Node(
                new Node.Parts(
                        built,
                        new Node.Database(dataSource, database, transactionRunner, checked),
                        new Kinds(definitions, codec, built, tracing),
                        claim,
                        new TaskListeners(listeners)),
                processes));
        upsertSchedules(errand);
        return errand;
    }

    private void upsertSchedules(Errand errand) {
        for (Schedule schedule : schedules.values()) {
            try {
                // Several nodes may start at once: the upsert is keyed by the schedule's name.
                errand.schedules().upsert(schedule);
            } catch (ErrandException e) {
                throw new IllegalStateException(
                        "Errand could not store schedule '" + schedule.name() + "': "
                                + e.getMessage() + ". Check that Errand's migrations ran (the table "
                                + errand.settings().tablePrefix().scheduleTable()
                                + " must exist)",
                        e);
            }
        }
    }

    /**
     * Refuses, before the database is touched, a schedule whose tasks this node could not enqueue: an
     * unregistered kind, an undeclared queue, a payload that does not fit the kind.
     */
    private void requireSchedulesEnqueueable(ErrandSettings built) {
        for (Schedule schedule : schedules.values()) {
            if (!definitions.containsKey(schedule.kind())) {
                throw new IllegalArgumentException("Schedule '" + schedule.name() + "' enqueues kind '"
                        + schedule.kind() + "', which this node does not register; register a TaskDefinition for"
                        + " it with register(...) on this builder");
            }
        }
        ScheduleChecks checks = new ScheduleChecks(definitions, built.queues().keySet(), codec);
        schedules.values().forEach(checks::payloadJson);
    }

    private static String defaultNodeId() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "host";
        }
        String id = host + "-" + ManagementFactory.getRuntimeMXBean().getPid() + "-"
                + UUID.randomUUID().toString().substring(0, 8);
        // Host names can hold characters a node id refuses; keep it plain.
        id = id.replaceAll("[^A-Za-z0-9._-]", "_");
        return id.length() > 200 ? id.substring(0, 200) : id;
    }
}
