package dev.errand.bench.systems;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.zaxxer.hikari.HikariDataSource;
import dev.errand.bench.BenchSystem;
import dev.errand.bench.Db;
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
        return "db-scheduler " + versionOf(Scheduler.class, "16.12.0") + " (lock-and-fetch " + lower + ", " + upper
                + ", polling " + pollInterval.toMillis() + " ms)";
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
        // The PostgreSQL table definition from db-scheduler's repository.
        db.execute(
                "CREATE TABLE " + table + " (task_name text NOT NULL, task_instance text NOT NULL,"
                        + " task_data bytea, execution_time timestamp with time zone NOT NULL, picked boolean NOT NULL,"
                        + " picked_by text, last_success timestamp with time zone, last_failure timestamp with time zone,"
                        + " consecutive_failures int, last_heartbeat timestamp with time zone, version bigint NOT NULL,"
                        + " priority smallint, PRIMARY KEY (task_name, task_instance))",
                "CREATE INDEX " + table + "_execution_time_idx ON " + table + " (execution_time)",
                "CREATE INDEX " + table + "_last_heartbeat_idx ON " + table + " (last_heartbeat)",
                "CREATE INDEX " + table + "_priority_execution_time_idx ON " + table
                        + " (priority DESC, execution_time ASC)");
        clientPool = db.pool(table + "-client", 4);
        client = SchedulerClient.Builder.create(clientPool, task)
                .tableName(table)
                .build();
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
        scheduler = Scheduler.create(workerPool, task)
                .tableName(table)
                .threads(concurrency)
                .pollingInterval(pollInterval)
                .pollUsingLockAndFetch(lower, upper)
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
