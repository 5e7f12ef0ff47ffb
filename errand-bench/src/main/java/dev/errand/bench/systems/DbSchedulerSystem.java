package dev.errand.bench.systems;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerBuilder;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.jdbc.AutodetectJdbcCustomization;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.zaxxer.hikari.HikariDataSource;
import dev.errand.bench.BenchSystem;
import dev.errand.bench.Db;
import dev.errand.bench.FillSql;
import dev.errand.bench.Probe;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * db-scheduler with the {@code lock-and-fetch} polling strategy ({@code SELECT … FOR UPDATE SKIP
 * LOCKED}), which its README advises above 1,000 executions per second: fetch again when the in-memory
 * queue falls to {@code lower × threads}, up to {@code upper × threads} executions per fetch. A one-time task
 * without data; the stamp rides in the instance id. Completed one-time executions are deleted.
 *
 * <p>On MariaDB and H2, where db-scheduler does not offer lock-and-fetch (its MariaDB support has it switched off,
 * and H2 gets its generic SQL), the strategy is {@code fetch-and-lock-on-execute}, its default, with the same
 * limits: each execution is picked by an {@code UPDATE} of its version before it runs.
 */
public final class DbSchedulerSystem implements BenchSystem {

    private final Db db;
    private final String table;
    private final Duration pollInterval;
    private final double lower;
    private final double upper;
    private final AtomicLong ids = new AtomicLong();
    private volatile Probe probe;
    private final OneTimeTask<Void> task;
    private HikariDataSource clientPool;
    private SchedulerClient client;
    private HikariDataSource workerPool;
    private Scheduler scheduler;

    /**
     * @param lower lock-and-fetch lower limit, as a fraction of threads
     * @param upper lock-and-fetch upper limit, as a fraction of threads
     */
    public DbSchedulerSystem(Db db, String table, Duration pollInterval, double lower, double upper) {
        this.db = db;
        this.table = table;
        this.pollInterval = pollInterval;
        this.lower = lower;
        this.upper = upper;
        this.task = Tasks.oneTime("noop").execute((instance, context) -> {
            Probe p = probe;
            if (p != null) {
                p.ran(stampOf(instance.getId()));
            }
        });
    }

    private static long stampOf(String instanceId) {
        int dash = instanceId.indexOf('-');
        return Long.parseLong(instanceId.substring(0, dash));
    }

    private TaskInstance<Void> instance(long stamp) {
        return task.instance(stamp + "-" + ids.incrementAndGet());
    }

    @Override
    public String id() {
        return "db-scheduler";
    }

    @Override
    public String version() {
        return "db-scheduler " + versionOf(Scheduler.class, "16.12.0") + " (" + strategy() + " " + lower + ", " + upper
                + ", polling " + pollInterval.toMillis() + " ms)";
    }

    /** Lock-and-fetch where db-scheduler supports it (of our databases, PostgreSQL only). */
    private boolean lockAndFetch() {
        return db.kind() == FillSql.POSTGRES;
    }

    /**
     * Whether the client and the scheduler write and read times as UTC, as db-scheduler advises for MariaDB's
     * zone-less {@code TIMESTAMP}: otherwise the JVM's and the session's time zones must agree.
     */
    private boolean utcTimestamps() {
        return db.kind() == FillSql.MARIADB;
    }

    private String strategy() {
        return lockAndFetch() ? "lock-and-fetch" : "fetch-and-lock-on-execute";
    }

    static String versionOf(Class<?> type, String fallback) {
        String v = type.getPackage().getImplementationVersion();
        return v == null ? fallback : v;
    }

    @Override
    public String taskTable() {
        return table;
    }

    @Override
    public void setUp() {
        tearDown();
        db.execute(
                createTableSql(),
                "CREATE INDEX " + table + "_execution_time_idx ON " + table + " (execution_time)",
                "CREATE INDEX " + table + "_last_heartbeat_idx ON " + table + " (last_heartbeat)",
                "CREATE INDEX " + table + "_priority_execution_time_idx ON " + table
                        + " (priority DESC, execution_time ASC)");
        clientPool = db.pool(table + "-client", 4);
        SchedulerClient.Builder clientBuilder =
                SchedulerClient.Builder.create(clientPool, task).tableName(table);
        if (utcTimestamps()) {
            clientBuilder.jdbcCustomization(new AutodetectJdbcCustomization(clientPool, true));
        }
        client = clientBuilder.build();
    }

    /** The table, with the column types of db-scheduler's own definition for the database. */
    private String createTableSql() {
        Columns c = Columns.of(db.kind());
        return "CREATE TABLE " + table + " (task_name " + c.name() + " NOT NULL, task_instance " + c.name()
                + " NOT NULL, task_data " + c.data() + ", execution_time " + c.time() + " NOT NULL, picked boolean"
                + " NOT NULL, picked_by " + c.pickedBy() + ", last_success " + c.optionalTime() + ", last_failure "
                + c.optionalTime() + ", consecutive_failures int, last_heartbeat " + c.optionalTime()
                + ", version bigint NOT NULL, priority smallint, PRIMARY KEY (task_name, task_instance))";
    }

    /** db-scheduler's column types on one database: names, task data, times (required and optional), picked_by. */
    private record Columns(String name, String data, String time, String optionalTime, String pickedBy) {

        static Columns of(FillSql kind) {
            return switch (kind) {
                case POSTGRES ->
                    new Columns("text", "bytea", "timestamp with time zone", "timestamp with time zone", "text");
                // Its MySQL definition, which it also gives for MariaDB; NULL spelled out, as there, so that an
                // optional timestamp never takes a default of its own.
                case MARIADB -> new Columns("varchar(100)", "blob", "timestamp(6)", "timestamp(6) NULL", "varchar(50)");
                // Its HSQLDB definition, which H2 reads as is but for BIT, here boolean as on the others. That one
                // has no indexes; H2 gets the others' three, so that its polls read as theirs do.
                case H2 ->
                    new Columns(
                            "varchar(100)",
                            "blob",
                            "timestamp with time zone",
                            "timestamp with time zone",
                            "varchar(50)");
            };
        }
    }

    @Override
    public void prefill(int count) {
        for (int done = 0; done < count; done += ErrandSystem.PREFILL_CHUNK) {
            enqueueBatch(Math.min(ErrandSystem.PREFILL_CHUNK, count - done));
        }
    }

    @Override
    public void enqueueOne(long stamp) {
        client.schedule(instance(stamp), Instant.now());
    }

    @Override
    public void enqueueBatch(int count) {
        List<TaskInstance<?>> batch = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            batch.add(instance(0));
        }
        client.scheduleBatch(batch, Instant.now());
    }

    @Override
    public void prepareWorkers(int concurrency, Probe probe) {
        closeWorker();
        this.probe = probe;
        workerPool = db.pool(table + "-worker", concurrency + 4);
        SchedulerBuilder builder = Scheduler.create(workerPool, task)
                .tableName(table)
                .threads(concurrency)
                .pollingInterval(pollInterval);
        if (utcTimestamps()) {
            builder.jdbcCustomization(new AutodetectJdbcCustomization(workerPool, true));
        }
        scheduler = (lockAndFetch()
                        ? builder.pollUsingLockAndFetch(lower, upper)
                        : builder.pollUsingFetchAndLockOnExecute(lower, upper))
                .build();
    }

    @Override
    public void startWorkers() {
        scheduler.start();
    }

    @Override
    public void stopWorkers() {
        closeWorker();
    }

    private void closeWorker() {
        if (scheduler != null) {
            scheduler.stop();
            scheduler = null;
        }
        if (workerPool != null) {
            workerPool.close();
            workerPool = null;
        }
    }

    @Override
    public long remaining() {
        return db.queryLong("SELECT count(*) FROM " + table);
    }

    @Override
    public void tearDown() {
        closeWorker();
        if (clientPool != null) {
            clientPool.close();
            clientPool = null;
        }
        db.execute("DROP TABLE IF EXISTS " + table);
    }

    @Override
    public void close() {
        tearDown();
    }
}
