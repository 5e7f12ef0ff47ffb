package dev.errand.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Bloat on PostgreSQL (issue 32 §5): a long steady burn-down, where every task is inserted, claimed (an update) and
 * deleted, so that the task table and its indexes fill with dead row versions that only vacuum reclaims. A producer
 * keeps a backlog of about {@code backlog} due tasks while a node of concurrency 8 runs them (no-op,
 * non-transactional, the library's defaults), until {@code tasks} have run. After every {@code window} tasks it
 * prints the window's rate, the task table's size with and without its indexes, its live and dead row counts and
 * how many times autovacuum has run on it.
 *
 * <p>Run it against a server whose autovacuum is at its defaults ({@code scripts/bloat-run.sh} starts one); with
 * {@code tuned}, the task table first gets the storage settings docs/DEPLOYMENT.md recommends.
 *
 * <p>Arguments: {@code <jdbcUrl> <user> <password or -> <tasks> <window> <backlog> <default|tuned>}.
 */
public final class BloatBench {

    private static final int CONCURRENCY = 8;
    private static final int BATCH = 1_000;

    /** The task table's storage settings that docs/DEPLOYMENT.md recommends for a busy queue. */
    static final String TUNED = "fillfactor = 90, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold ="
            + " 20000, autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 20000,"
            + " autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 20000, autovacuum_vacuum_cost_delay"
            + " = 0";

    private BloatBench() {}

    /** Runs the benchmark; see the class comment for the arguments. */
    public static void main(String[] args) throws Exception {
        String password = args[2].equals("-") ? "" : args[2];
        long tasks = Long.parseLong(args[3]);
        long window = Long.parseLong(args[4]);
        int backlog = Integer.parseInt(args[5]);
        boolean tuned = args[6].equals("tuned");
        String prefix = BenchTables.runPrefix("bench_bloat_");
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(args[0]);
        config.setUsername(args[1]);
        config.setPassword(password);
        config.setMaximumPoolSize(CONCURRENCY + 6);
        try (HikariDataSource dataSource = new HikariDataSource(config)) {
            AtomicLong ran = new AtomicLong();
            Errand errand = Errand.builder(dataSource)
                    .tablePrefix(prefix)
                    .queue("default", CONCURRENCY)
                    .register(TaskDefinition.builder("noop", Void.class, (none, ctx) -> ran.incrementAndGet())
                            .mode(ExecutionMode.NON_TRANSACTIONAL)
                            .build())
                    .build();
            String table = prefix + "task";
            if (tuned) {
                BenchTables.execute(dataSource, "ALTER TABLE " + table + " SET (" + TUNED + ")");
            }
            System.out.printf(
                    Locale.ROOT,
                    "%s: %,d tasks, a backlog of about %,d, windows of %,d; task table settings: %s%n",
                    args[6],
                    tasks,
                    backlog,
                    window,
                    tuned ? TUNED : "the server's defaults");
            System.out.println("ran        window_rate  heap_mb  total_mb  live_rows  dead_rows  autovacuums");
            try {
                run(errand, dataSource, table, ran, new long[] {tasks, window, backlog});
            } finally {
                errand.stop(Duration.ofSeconds(10));
                BenchTables.dropTables(dataSource, prefix);
            }
        }
    }

    /** Produces and drains; {@code sizes} holds the tasks, the window and the backlog. */
    private static void run(Errand errand, HikariDataSource dataSource, String table, AtomicLong ran, long[] sizes)
            throws Exception {
        long tasks = sizes[0];
        long window = sizes[1];
        long backlog = sizes[2];
        List<TaskRequest> batch = new ArrayList<>(BATCH);
        for (int i = 0; i < BATCH; i++) {
            batch.add(TaskRequest.of("noop", null));
        }
        long enqueued = 0;
        errand.start();
        long windowStart = System.nanoTime();
        long nextReport = window;
        while (ran.get() < tasks) {
            if (enqueued < tasks && enqueued - ran.get() < backlog) {
                errand.enqueueAll(batch);
                enqueued += BATCH;
                continue;
            }
            if (ran.get() >= nextReport) {
                double rate = window / ((System.nanoTime() - windowStart) / 1e9);
                report(dataSource, table, nextReport, rate);
                windowStart = System.nanoTime();
                nextReport += window;
                continue;
            }
            Thread.sleep(2); // the point: the producer waits for the backlog to drain below its mark
        }
        if (ran.get() >= nextReport) {
            report(dataSource, table, nextReport, window / ((System.nanoTime() - windowStart) / 1e9));
        }
    }

    private static void report(HikariDataSource dataSource, String table, long ran, double rate) throws Exception {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement();
                ResultSet row = s.executeQuery("SELECT pg_relation_size('" + table + "'), pg_total_relation_size('"
                        + table + "'), n_live_tup, n_dead_tup, autovacuum_count FROM pg_stat_user_tables WHERE"
                        + " relname = '" + table + "'")) {
            row.next();
            System.out.printf(
                    Locale.ROOT,
                    "%,10d %,11.0f %8.1f %9.1f %10d %10d %12d%n",
                    ran,
                    rate,
                    row.getLong(1) / 1048576.0,
                    row.getLong(2) / 1048576.0,
                    row.getLong(3),
                    row.getLong(4),
                    row.getLong(5));
        }
    }
}
