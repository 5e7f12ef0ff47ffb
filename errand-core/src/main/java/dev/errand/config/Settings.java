package dev.errand.config;

import java.time.Duration;
import java.util.List;

/**
 * The table of every node setting: name, default and range. {@code ErrandBuilder} validates against
 * it, and the Spring Boot starter derives its {@code errand.*} properties, their defaults, their
 * validation messages and their configuration metadata from it.
 */
public final class Settings {

    /** The longest a poller sleeps without a wake-up. */
    public static final Setting<Duration> POLL_INTERVAL = Setting.ofDuration(
            "pollInterval",
            Duration.ofMillis(500),
            Duration.ofMillis(10),
            Duration.ofHours(1),
            "The longest a poller sleeps without a wake-up.");

    /** The most tasks one claim statement takes. */
    public static final Setting<Integer> CLAIM_BATCH_SIZE =
            Setting.ofInt("claimBatchSize", 500, 1, 10_000, "The most tasks one claim statement takes.");

    /** The most claimed tasks a queue keeps waiting for a free worker. */
    public static final Setting<Integer> PREFETCH = Setting.ofInt(
            "prefetch",
            1_000,
            0,
            10_000,
            "The most claimed tasks a queue keeps waiting for a free worker: about as many as it completed in the"
                    + " last 200 ms, up to this. 0 claims only for free workers.");

    /** How many tasks of a queue this node runs at once. */
    public static final Setting<Integer> CONCURRENCY = Setting.ofInt(
            "concurrency", 4, 1, 1_000, "How many tasks of the queue this node runs at once (its worker threads).");

    /** The lease set by a claim, and the default lease of every kind. */
    public static final Setting<Duration> LEASE_DURATION = Setting.ofDuration(
            "leaseDuration",
            Duration.ofSeconds(60),
            Duration.ofSeconds(1),
            Duration.ofHours(24),
            "The lease set by every claim and the default lease of kinds; at least twice the heartbeat interval.");

    /** The longest one attempt of a kind may run before its handler is interrupted; set per kind, none by default. */
    public static final Setting<Duration> EXECUTION_TIMEOUT = Setting.ofDuration(
            "executionTimeout",
            null,
            Duration.ofMillis(10),
            Duration.ofHours(24),
            "The longest one attempt of a kind may run: its handler is then interrupted, a transactional"
                    + " attempt rolls back, and the attempt counts as failed. Set per kind; none by default.");

    /** How often the node extends the leases it holds. */
    public static final Setting<Duration> HEARTBEAT_INTERVAL = Setting.ofDuration(
            "heartbeatInterval",
            Duration.ofSeconds(10),
            Duration.ofMillis(100),
            Duration.ofHours(1),
            "How often the node extends the leases it holds.");

    /** The longest a non-transactional completion waits before it is flushed. */
    public static final Setting<Duration> COMPLETION_FLUSH_INTERVAL = Setting.ofDuration(
            "completionFlushInterval",
            Duration.ofMillis(5),
            Duration.ofMillis(1),
            Duration.ofSeconds(10),
            "How long completions of non-transactional tasks are gathered into one statement.");

    /** The most completions in one statement. */
    public static final Setting<Integer> COMPLETION_BATCH_SIZE =
            Setting.ofInt("completionBatchSize", 500, 1, 10_000, "The most completions in one statement.");

    /** How often the node looks for tasks whose lease expired. */
    public static final Setting<Duration> RESCUE_INTERVAL = Setting.ofDuration(
            "rescueInterval",
            Duration.ofSeconds(15),
            Duration.ofMillis(100),
            Duration.ofHours(1),
            "How often the node looks for tasks whose lease expired.");

    /** How long a graceful stop waits for running tasks. */
    public static final Setting<Duration> SHUTDOWN_TIMEOUT = Setting.ofDuration(
            "shutdownTimeout",
            Duration.ofSeconds(30),
            Duration.ZERO,
            Duration.ofHours(1),
            "How long a graceful stop waits for running tasks.");

    /** How long succeeded tasks are kept; unset deletes them when they complete. */
    public static final Setting<Duration> SUCCEEDED_RETENTION = Setting.ofDuration(
            "succeededRetention",
            null,
            Duration.ofSeconds(1),
            Duration.ofDays(3650),
            "How long succeeded tasks are kept before they are pruned. Unset: a succeeded task is deleted when it"
                    + " completes.");

    /** How long failed tasks are kept; unset keeps them until an operator deletes them. */
    public static final Setting<Duration> FAILED_RETENTION = Setting.ofDuration(
            "failedRetention",
            null,
            Duration.ofSeconds(1),
            Duration.ofDays(3650),
            "How long failed tasks are kept after they failed before they are pruned. Unset: kept until deleted.");

    /** How long cancelled tasks are kept; unset keeps them until an operator deletes them. */
    public static final Setting<Duration> CANCELLED_RETENTION = Setting.ofDuration(
            "cancelledRetention",
            null,
            Duration.ofSeconds(1),
            Duration.ofDays(3650),
            "How long cancelled tasks are kept after they were cancelled before they are pruned. Unset: kept until"
                    + " deleted.");

    /** How long a finished batch's rows are kept; unset keeps them until an operator deletes them. */
    public static final Setting<Duration> BATCH_RETENTION = Setting.ofDuration(
            "batchRetention",
            null,
            Duration.ofSeconds(1),
            Duration.ofDays(3650),
            "How long a batch's own rows (its counters and callbacks) are kept, counted from its creation, before"
                    + " they are pruned once it has finished and its callbacks have fired. Unset: kept until"
                    + " deleted.");

    /** How often finished tasks past their retention (succeeded ones, and failed or cancelled ones where a retention is set) are pruned. */
    public static final Setting<Duration> PRUNE_INTERVAL = Setting.ofDuration(
            "pruneInterval",
            Duration.ofMinutes(5),
            Duration.ofSeconds(1),
            Duration.ofHours(24),
            "How often finished tasks past their retention (succeeded, and failed or cancelled where one is set) are deleted.");

    /** How long premature events are kept; unset keeps them until a task consumes them or an operator deletes them. */
    public static final Setting<Duration> PREMATURE_EVENT_RETENTION = Setting.ofDuration(
            "prematureEventRetention",
            null,
            Duration.ofSeconds(1),
            Duration.ofDays(3650),
            "How long a premature event (triggered while no task waited for it) is kept after it was last"
                    + " triggered. Unset: kept until a task consumes it or it is deleted by hand.");

    /** How long the attempt history keeps an attempt after it finished. */
    public static final Setting<Duration> HISTORY_RETENTION = Setting.ofDuration(
            "historyRetention",
            Duration.ofDays(7),
            Duration.ofSeconds(1),
            Duration.ofDays(3650),
            "How long the attempt history keeps an attempt after it finished; older ones are pruned in batches"
                    + " every prune interval.");

    /** The longest stack trace the attempt history keeps per attempt. */
    public static final Setting<Integer> HISTORY_STACK_TRACE_LIMIT = Setting.ofInt(
            "historyStackTraceLimit",
            4_000,
            0,
            100_000,
            "The most characters of a failed attempt's stack trace that the attempt history keeps; 0 keeps none.");

    /** The most of its time the scheduler spends firing while many schedules are due at once. */
    public static final Setting<Integer> SCHEDULE_FIRING_PERCENT = Setting.ofInt(
            "scheduleFiringPercent",
            25,
            1,
            100,
            "The most of its time, in percent, that a node's scheduler spends firing while more than 100"
                    + " schedules are due at once: after each firing transaction of 100 schedules it pauses, so that"
                    + " firing a large minute does not take the CPU and connections that claiming needs. 100 fires"
                    + " without pauses; lower values spread the firing and make the last slots later.");

    /** How long before its slot a schedule's task may be written. */
    public static final Setting<Duration> SCHEDULE_LOOKAHEAD = Setting.ofDuration(
            "scheduleLookahead",
            Duration.ofMinutes(1),
            Duration.ZERO,
            Duration.ofHours(1),
            "How long before its slot a schedule's task may be written: each schedule writes its next slot's task"
                    + " at its own point of this window, fixed by its name and never before its previous slot, so"
                    + " that thousands of schedules on the same minute are written spread over the minute before it"
                    + " instead of all at once. The task waits as pending until its slot. 0 writes each slot when it"
                    + " comes.");

    /** The delay before another attempt of a task whose kind this node does not know. */
    public static final Setting<Duration> UNKNOWN_KIND_RETRY_DELAY = Setting.ofDuration(
            "unknownKindRetryDelay",
            Duration.ofMinutes(1),
            Duration.ZERO,
            Duration.ofHours(24),
            "The delay before another attempt of a task whose kind this node does not know.");

    /** How old a node's heartbeat may be before the leader declares the node dead and rescues its work. */
    public static final Setting<Duration> DEAD_NODE_TIMEOUT = Setting.ofDuration(
            "deadNodeTimeout",
            Duration.ofSeconds(30),
            Duration.ofMillis(200),
            Duration.ofHours(1),
            "How old a node's heartbeat may be before the leader declares it dead and rescues its tasks at once;"
                    + " at least twice the heartbeat interval. Unset, it is 30 s or three heartbeat intervals,"
                    + " whichever is longer.");

    /** How long the leader's lease lasts without renewal. */
    public static final Setting<Duration> LEADER_LEASE = Setting.ofDuration(
            "leaderLease",
            Duration.ofSeconds(3),
            Duration.ofMillis(400),
            Duration.ofHours(1),
            "How long the leader's lease lasts without renewal. Every node tries to take or renew it each quarter"
                    + " of it, so a leader that dies is replaced within about 1.25 leases (under 4 s by default). A"
                    + " leader paused longer than the lease (a long GC pause, a slow database) hands leadership to"
                    + " another node and learns it at its next try; the leader's duties are safe to overlap.");

    /** How long the registry keeps the row of a node that stopped or was declared dead. */
    public static final Setting<Duration> NODE_RETENTION = Setting.ofDuration(
            "nodeRetention",
            Duration.ofDays(7),
            Duration.ofMinutes(1),
            Duration.ofDays(3650),
            "How long the node registry keeps the row of a node that stopped or was declared dead, counted from its"
                    + " stop (or its last heartbeat, for a dead node); the leader then deletes it every prune"
                    + " interval. A node that comes back registers again.");

    /** How long a node waits after start before its first claim. */
    public static final Setting<Duration> STARTUP_DELAY = Setting.ofDuration(
            "startupDelay",
            Duration.ZERO,
            Duration.ZERO,
            Duration.ofHours(1),
            "How long a started node waits before its first claim (it registers, enqueues and serves admin at once).");

    /** The shortest time between two claims of one queue that found nothing. */
    public static final Setting<Duration> MINIMUM_POLL_INTERVAL = Setting.ofDuration(
            "minimumPollInterval",
            Duration.ZERO,
            Duration.ZERO,
            Duration.ofMinutes(1),
            "The shortest time between two empty claims of one queue: wake-ups that come faster are gathered.");

    /** The most attempts of a task, where neither its request nor its kind sets it. */
    public static final Setting<Integer> DEFAULT_MAX_ATTEMPTS = Setting.ofInt(
            "defaultMaxAttempts", 5, 1, 1_000, "The most attempts for tasks whose kind and request set none.");

    /** The range of a kind's or a request's maximum attempts (no default of its own). */
    public static final Setting<Integer> MAX_ATTEMPTS =
            Setting.ofInt("maxAttempts", null, 1, 1_000, "The most attempts of a task.");

    /** The range of a kind's group commit: how many of its tasks may share one transaction (no default). */
    public static final Setting<Integer> GROUP_COMMIT = Setting.ofInt(
            "groupCommit", null, 1, 1_000, "The most tasks of a transactional kind that commit in one transaction.");

    private static final List<Setting<?>> NODE_SETTINGS = List.of(
            POLL_INTERVAL,
            CLAIM_BATCH_SIZE,
            PREFETCH,
            LEASE_DURATION,
            HEARTBEAT_INTERVAL,
            COMPLETION_FLUSH_INTERVAL,
            COMPLETION_BATCH_SIZE,
            RESCUE_INTERVAL,
            SHUTDOWN_TIMEOUT,
            SUCCEEDED_RETENTION,
            FAILED_RETENTION,
            CANCELLED_RETENTION,
            BATCH_RETENTION,
            PRUNE_INTERVAL,
            PREMATURE_EVENT_RETENTION,
            HISTORY_RETENTION,
            HISTORY_STACK_TRACE_LIMIT,
            SCHEDULE_FIRING_PERCENT,
            SCHEDULE_LOOKAHEAD,
            UNKNOWN_KIND_RETRY_DELAY,
            DEFAULT_MAX_ATTEMPTS,
            DEAD_NODE_TIMEOUT,
            LEADER_LEASE,
            NODE_RETENTION,
            STARTUP_DELAY,
            MINIMUM_POLL_INTERVAL);

    private Settings() {}

    /**
     * Every node-wide setting, each a setter of {@code ErrandBuilder} and a property {@code errand.<property>}.
     * Per-queue ({@link #CONCURRENCY}) and per-task ({@link #MAX_ATTEMPTS}) settings are not in the list.
     */
    public static List<Setting<?>> nodeSettings() {
        return NODE_SETTINGS;
    }
}
