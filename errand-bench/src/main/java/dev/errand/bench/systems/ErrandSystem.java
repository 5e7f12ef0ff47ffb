package dev.errand.bench.systems;

import com.zaxxer.hikari.HikariDataSource;
import dev.errand.Errand;
import dev.errand.ErrandBuilder;
import dev.errand.bench.BenchSystem;
import dev.errand.bench.Db;
import dev.errand.bench.Probe;
import dev.errand.bench.SchedulerMeter;
import dev.errand.config.ErrandSettings;
import dev.errand.config.Settings;
import dev.errand.enqueue.TaskRequest;
import dev.errand.internal.schedule.FireAhead;
import dev.errand.schedule.Schedule;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * Errand, in non-transactional mode (batched completion) or transactional mode (one transaction per
 * task that locks, runs and completes it). Enqueues go through a node with processing off, so a worker
 * node learns of new tasks through PostgreSQL LISTEN/NOTIFY, never through an in-process signal.
 */
public final class ErrandSystem implements BenchSystem {

    /** The payload of every benchmark task: the enqueue stamp, or 0. */
    public record Stamp(long t) {}

    static final int PREFILL_CHUNK = 5_000;
    private static final long MINUTE_MS = 60_000;

    private final Db db;
    private final boolean transactional;
    private final String prefix;
    private final Duration pollInterval;
    private boolean history;
    private boolean virtualThreads;
    private int groupCommit = 1;
    private boolean writes;
    private HikariDataSource clientPool;
    private Errand client;
    private HikariDataSource workerPool;
    private Errand worker;
    private int schedules;
    private String scheduleQueue = ErrandSettings.DEFAULT_QUEUE;
    private boolean atSlot;
    private Duration lookahead = Settings.SCHEDULE_LOOKAHEAD.defaultValue();
    private SchedulerMeter meter;

    /**
     * @param db the database
     * @param transactional whether the no-op kind runs in TRANSACTIONAL mode
     * @param prefix the table prefix
     * @param pollInterval the worker's poll interval (wake-ups come from NOTIFY)
     */
    public ErrandSystem(Db db, boolean transactional, String prefix, Duration pollInterval) {
        this.db = db;
        this.transactional = transactional;
        this.prefix = prefix;
        this.pollInterval = pollInterval;
    }

    /**
     * The same system with the attempt history on. The headline systems run with the library's defaults,
     * where history is off; this one is the pairing that measures what history costs.
     */
    public ErrandSystem withHistory() {
        ErrandSystem with = new ErrandSystem(db, transactional, prefix, pollInterval);
        with.history = true;
        return with;
    }

    /**
     * The same system with its handlers on virtual threads (Java 21 and later; the library's default is platform
     * threads): the pairing with the default measures what they change.
     */
    public ErrandSystem withVirtualThreads() {
        ErrandSystem with = new ErrandSystem(db, transactional, prefix, pollInterval);
        with.virtualThreads = true;
        return with;
    }

    /**
     * The same transactional system with group commit: up to {@code maxTasks} tasks per transaction (the library's
     * default is one): the pairings with it measure what group commit changes.
     */
    public ErrandSystem withGroupCommit(int maxTasks) {
        ErrandSystem with = new ErrandSystem(db, true, prefix, pollInterval);
        with.groupCommit = maxTasks;
        return with;
    }

    /**
     * The same transactional system whose handler inserts one row into {@code <prefix>effect} on the task's
     * transaction, as a task that records its effect does.
     */
    public ErrandSystem withWrites() {
        ErrandSystem with = new ErrandSystem(db, true, prefix, pollInterval);
        with.groupCommit = groupCommit;
        with.writes = true;
        return with;
    }

    /** The table of {@link #withWrites()}: one row per task run. */
    public static String effectTableSql(String prefix) {
        return "CREATE TABLE " + prefix + "effect (task_id BIGINT NOT NULL, stamp BIGINT NOT NULL)";
    }

    /** The insert of {@link #withWrites()}: the task's id and its stamp. */
    public static String effectInsertSql(String prefix) {
        return "INSERT INTO " + prefix + "effect (task_id, stamp) VALUES (?, ?)";
    }

    /**
     * Registers {@code count} schedules on a one-minute cron ({@code * * * * *}) at each {@link #setUp()}:
     * this system is then {@code errand-schedules}. Their tasks are no-op tasks in {@code queue}; the
     * worker node runs them only if that is the default queue.
     */
    public ErrandSystem withSchedules(int count, String queue) {
        this.schedules = count;
        this.scheduleQueue = queue;
        return this;
    }

    /**
     * Writes each slot when it comes ({@code scheduleLookahead(0)}, as before the lookahead existed): this
     * system is then {@code errand-schedules-at-slot}.
     */
    public ErrandSystem atSlot() {
        this.atSlot = true;
        return this;
    }

    /**
     * The worker node's schedule lookahead instead of the default; the smoke profile shortens it to fit its
     * windows of a second or two.
     */
    public ErrandSystem lookahead(Duration lookahead) {
        this.lookahead = lookahead;
        return this;
    }

    /** Meters the worker node's scheduler thread from the next {@link #prepareWorkers} on. */
    public void meterScheduler() {
        meter = new SchedulerMeter(ErrandSettings.DEFAULT_THREAD_NAME_PREFIX + "scheduler");
    }

    /** The meter of {@link #meterScheduler()}, or null. */
    public SchedulerMeter meter() {
        return meter;
    }

    /** How many schedules {@link #setUp()} registers. */
    public int schedules() {
        return schedules;
    }

    /** The schedule table. */
    public String scheduleTable() {
        return prefix + "schedule";
    }

    /** The pool name, and PostgreSQL application name, of the worker node's connections. */
    public String workerPoolName() {
        return prefix + "worker";
    }

    /**
     * Puts every schedule where a node that had been running all along would have it at {@code startMillis},
     * with {@code slotMillis} as the next slot of all of them (set-up, so that a trial knows when its slot
     * is): a schedule whose time to write that slot ({@code slot} minus its lead, see {@link FireAhead}) is
     * not after the start has written it already, as a pending task at the slot, and waits for the slot
     * after; the others write it when their time comes. Without this, every schedule whose time had passed
     * would write its slot at once when the node starts, a burst that a running cluster never sees.
     */
    public void steadyAt(long slotMillis, long startMillis) {
        FireAhead fireAhead = new FireAhead(lookahead());
        StringBuilder leads = new StringBuilder();
        for (int i = 1; i <= schedules; i++) {
            String name = scheduleName(i);
            leads.append(i == 1 ? "" : ", ")
                    .append("('")
                    .append(name)
                    .append("', ")
                    .append(fireAhead.lead(name).toMillis())
                    .append(')');
        }
        String with = "WITH lead (name, ms) AS (VALUES " + leads + ") ";
        String written = slotMillis + " - lead.ms <= " + startMillis;
        db.execute(
                with + "INSERT INTO " + taskTable() + " (kind, queue, payload, priority, run_at, max_attempts,"
                        + " unique_key) SELECT s.kind, s.queue, s.payload, 5, " + at(slotMillis)
                        + ", 5, 'schedule:' || s.name || '@" + slotMillis + "' FROM " + scheduleTable()
                        + " s JOIN lead ON lead.name = s.name WHERE " + written,
                with + "UPDATE " + scheduleTable() + " s SET"
                        + " next_run_at = CASE WHEN " + written + " THEN " + at(slotMillis + MINUTE_MS) + " ELSE "
                        + at(slotMillis) + " END,"
                        + " fire_at = CASE WHEN " + written + " THEN " + at(slotMillis + MINUTE_MS) + " ELSE "
                        + at(slotMillis) + " END - lead.ms * INTERVAL '1 millisecond',"
                        + " last_run_at = CASE WHEN " + written + " THEN " + at(slotMillis) + " ELSE "
                        + at(slotMillis - MINUTE_MS) + " END,"
                        + " prior_run_at = CASE WHEN " + written + " THEN " + at(slotMillis - MINUTE_MS) + " ELSE "
                        + at(slotMillis - 2 * MINUTE_MS) + " END"
                        + " FROM lead WHERE lead.name = s.name");
    }

    private static String at(long epochMillis) {
        return "(TIMESTAMPTZ 'epoch' + " + epochMillis + " * INTERVAL '1 millisecond')";
    }

    /** The worker node's schedule lookahead. */
    private Duration lookahead() {
        return atSlot ? Duration.ZERO : lookahead;
    }

    @Override
    public String id() {
        String base = transactional
                ? "errand-tx"
                : schedules > 0 ? (atSlot ? "errand-schedules-at-slot" : "errand-schedules") : "errand";
        return base
                + (groupCommit > 1 ? "-group" : "")
                + (history ? "-history" : "")
                + (virtualThreads ? "-vthreads" : "");
    }

    @Override
    public String version() {
        return "errand-core " + System.getProperty("bench.errand.version", "0.1.0-SNAPSHOT");
    }

    @Override
    public String taskTable() {
        return prefix + "task";
    }

    @Override
    public void setUp() {
        tearDown();
        clientPool = db.pool(prefix + "client", 4);
        // The client registers the kind too (it never runs it): the admin API refuses a schedule of a kind
        // the node that adds it does not register.
        ErrandBuilder clientBuilder = builder(clientPool);
        if (!scheduleQueue.equals(ErrandSettings.DEFAULT_QUEUE)) {
            // A schedule's queue must be declared on the node that adds it, as for an enqueue; this node runs none.
            clientBuilder.queue(scheduleQueue, 1);
        }
        client = clientBuilder
                .processingEnabled(false)
                .register(TaskDefinition.builder("noop", Stamp.class, (stamp, ctx) -> {})
                        .mode(transactional ? ExecutionMode.TRANSACTIONAL : ExecutionMode.NON_TRANSACTIONAL)
                        .build())
                .build();
        if (schedules > 0) {
            registerSchedules();
        }
        if (writes) {
            db.execute(effectTableSql(prefix));
        }
    }

    /**
     * One schedule through the admin API, then copies of its row under other names: the same row as
     * {@code schedules().upsert} writes, without 10,000 transactions of set-up.
     */
    private void registerSchedules() {
        String first = scheduleName(1);
        client.schedules()
                .upsert(Schedule.cron(first, "noop", "* * * * *")
                        .queue(scheduleQueue)
                        .payload(new Stamp(0))
                        .build());
        String columns = "kind, queue, payload, cron, interval_ms, time_zone, misfire, misfire_limit, paused,"
                + " next_run_at, fire_at, last_run_at, prior_run_at";
        db.execute(
                "INSERT INTO " + scheduleTable() + " (name, " + columns + ") SELECT 'bench-schedule-' ||"
                        + " lpad(g::text, greatest(5, length(g::text)), '0'), " + columns + " FROM " + scheduleTable()
                        + " CROSS JOIN generate_series(2, " + schedules + ") AS g WHERE name = '" + first + "'",
                "VACUUM ANALYZE " + scheduleTable());
        long stored = db.queryLong("SELECT count(*) FROM " + scheduleTable());
        if (stored != schedules) {
            throw new IllegalStateException("Expected " + schedules + " schedules, found " + stored);
        }
    }

    static String scheduleName(int i) {
        return String.format(java.util.Locale.ROOT, "bench-schedule-%05d", i);
    }

    private ErrandBuilder builder(HikariDataSource pool) {
        return Errand.builder(pool).tablePrefix(prefix).queue(ErrandSettings.DEFAULT_QUEUE, 1);
    }

    @Override
    public void prefill(int count) throws Exception {
        if (count > 200_000) {
            db.execute(prefillSql(db, prefix, count, 5, "0"));
            return;
        }
        for (int done = 0; done < count; done += PREFILL_CHUNK) {
            enqueueBatch(Math.min(PREFILL_CHUNK, count - done));
        }
    }

    /**
     * Bulk insert straight into Errand's table, with the SQL the schema reference documents. Every row
     * gets its own {@code run_at} (one microsecond apart), as real tasks do: identical keys would let
     * the B-tree deduplicate them and hide the cost of scanning past them.
     */
    public static String prefillSql(Db db, String prefix, int count, int priority, String delaySeconds) {
        return "INSERT INTO " + prefix + "task (kind, queue, payload, priority, run_at, max_attempts)"
                + " SELECT 'noop', 'default', '{\"t\":0}'::jsonb, " + priority + ", now() + interval '"
                + delaySeconds + " seconds' - g * interval '1 microsecond', 5 FROM generate_series(1, " + count
                + ") AS g";
    }

    @Override
    public void enqueueOne(long stamp) throws Exception {
        client.enqueue(TaskRequest.of("noop", new Stamp(stamp)));
    }

    @Override
    public void enqueueBatch(int count) throws Exception {
        List<TaskRequest> requests = new ArrayList<>(count);
        TaskRequest request = TaskRequest.of("noop", new Stamp(0));
        for (int i = 0; i < count; i++) {
            requests.add(request);
        }
        client.enqueueAll(requests);
    }

    /**
     * Enqueues {@code count} no-op tasks as one batch whose {@code COMPLETE} callback is one more no-op task,
     * in one transaction through {@code Errand.enqueueBatch}; returns the batch's id.
     */
    public long enqueueAsBatch(int count) {
        TaskRequest request = TaskRequest.of("noop", new Stamp(0));
        List<TaskRequest> requests = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            requests.add(request);
        }
        return client.enqueueBatch(dev.errand.batch.BatchRequest.builder()
                        .addAll(requests)
                        .on(dev.errand.batch.BatchEvent.COMPLETE, id -> request)
                        .build())
                .id();
    }

    @Override
    public void prepareWorkers(int concurrency, Probe probe) {
        closeWorker();
        // Transactional runs hold a connection each; add the poller, completer, heartbeat, maintenance,
        // listener and outcome writes.
        workerPool = db.pool(workerPoolName(), (transactional ? concurrency : 2) + 6);
        DataSource dataSource = meter == null ? workerPool : meter.wrap(workerPool);
        ErrandBuilder builder = Errand.builder(dataSource);
        // Errand's defaults unless a run overrides them (for tuning experiments only).
        Integer claimBatch = Integer.getInteger("bench.errand.claimBatch");
        if (claimBatch != null) {
            builder.claimBatchSize(claimBatch);
        }
        Integer completionBatch = Integer.getInteger("bench.errand.completionBatch");
        if (completionBatch != null) {
            builder.completionBatchSize(completionBatch);
        }
        String processingLogs = System.getProperty("bench.errand.processingLogs");
        if (processingLogs != null) {
            builder.processingLogsEnabled(Boolean.parseBoolean(processingLogs));
        }
        Integer prefetch = Integer.getInteger("bench.errand.prefetch");
        if (prefetch != null) {
            builder.prefetch(prefetch);
        }
        builder.scheduleLookahead(lookahead());
        if (history) {
            builder.historyEnabled(true); // otherwise the library's default, off
        }
        if (virtualThreads) {
            builder.virtualThreads(true); // otherwise the library's default, platform threads
        }
        worker = builder.tablePrefix(prefix)
                .migrationsEnabled(false)
                .queue(ErrandSettings.DEFAULT_QUEUE, concurrency)
                .pollInterval(pollInterval)
                .register(TaskDefinition.builder("noop", Stamp.class, (stamp, ctx) -> {
                            probe.ran(stamp.t());
                            if (writes) {
                                try (java.sql.PreparedStatement insert =
                                        ctx.connection().prepareStatement(effectInsertSql(prefix))) {
                                    insert.setLong(1, ctx.taskId());
                                    insert.setLong(2, stamp.t());
                                    insert.executeUpdate();
                                }
                            }
                        })
                        .mode(transactional ? ExecutionMode.TRANSACTIONAL : ExecutionMode.NON_TRANSACTIONAL)
                        .groupCommit(groupCommit)
                        .build())
                .build();
    }

    @Override
    public void startWorkers() {
        worker.start();
    }

    @Override
    public void stopWorkers() {
        closeWorker();
    }

    private void closeWorker() {
        if (worker != null) {
            worker.stop(Duration.ofSeconds(10));
            worker = null;
        }
        if (workerPool != null) {
            workerPool.close();
            workerPool = null;
        }
    }

    @Override
    public long remaining() {
        return db.queryLong("SELECT count(*) FROM " + prefix + "task WHERE state IN ('pending', 'running')");
    }

    @Override
    public void tearDown() {
        closeWorker();
        if (clientPool != null) {
            clientPool.close();
            clientPool = null;
        }
        // Every table of the prefix: the task table and the side tables that later migrations add.
        db.dropTablesStartingWith(prefix);
    }

    @Override
    public void close() {
        tearDown();
    }
}
