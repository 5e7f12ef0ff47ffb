package dev.errand.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.errand.Errand;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Large tables (issue 32 §5): does Errand keep its speed with a big attempt history beside a big backlog? One run on
 * one schema of its own measures, first with a small history and then with a large one:
 *
 * <ul>
 *   <li>{@code claim}: a node of concurrency 8 drains {@code burn} no-op non-transactional tasks from a backlog of
 *       {@code pending} due tasks (the library's defaults, history off: claims never read the history); tasks per
 *       second;
 *   <li>the console's reads that touch the task table or the history: the counts, the stored snapshot, the load, the
 *       history's throughput per minute and its first pages; median milliseconds over {@code rounds} calls;
 *   <li>{@code retention}: {@code HistoryAdmin.prune} of the attempts older than 7 days, which are 30% of the history
 *       (finished over the last 10 days, spread evenly); rows per second, and how long the first 1,000-row batch
 *       took to find.
 * </ul>
 *
 * <p>The small history is {@code historyRows / 100} rows; the large one {@code historyRows}. Both fills are set-based
 * SQL, followed by the statistics autovacuum would gather.
 *
 * <p>Arguments: {@code <jdbcUrl> <user> <password or -> <historyRows> <pending> <burn> <rounds>}. PostgreSQL, MariaDB or
 * H2.
 */
public final class LargeTablesBench {

    private static final int CONCURRENCY = 8;

    private LargeTablesBench() {}

    /** Runs the benchmark; see the class comment for the arguments. */
    public static void main(String[] args) throws Exception {
        String password = args[2].equals("-") ? "" : args[2];
        long historyRows = Long.parseLong(args[3]);
        int pending = Integer.parseInt(args[4]);
        int burn = Integer.parseInt(args[5]);
        int rounds = Integer.parseInt(args[6]);
        FillSql sql = FillSql.of(args[0]);
        String prefix = BenchTables.runPrefix("bench_large_");
        try (HikariDataSource dataSource = BenchTables.pool(args[0], args[1], password)) {
            Errand reader = Errand.builder(dataSource)
                    .tablePrefix(prefix)
                    .processingEnabled(false)
                    .historyEnabled(true)
                    .build();
            try {
                long started = System.nanoTime();
                fillPending(dataSource, prefix, sql, pending);
                System.out.printf(Locale.ROOT, "filled %,d pending tasks in %.1f s%n", pending, seconds(started));
                for (long rows : new long[] {historyRows / 100, historyRows}) {
                    started = System.nanoTime();
                    fillHistory(dataSource, prefix, sql, rows);
                    System.out.printf(Locale.ROOT, "history of %,d attempts ready in %.1f s%n", rows, seconds(started));
                    measure(dataSource, args, prefix, reader, rows, burn, rounds);
                    // Put back what the burn-down took, so that both phases claim from the same backlog.
                    fillPending(dataSource, prefix, sql, burn);
                }
            } finally {
                reader.stop(Duration.ofSeconds(5));
                BenchTables.dropTables(dataSource, prefix);
            }
        }
    }

    private static void measure(
            HikariDataSource dataSource, String[] args, String prefix, Errand reader, long rows, int burn, int rounds)
            throws Exception {
        FillSql sql = FillSql.of(args[0]);
        String phase = String.format(Locale.ROOT, "history=%,d", rows);
        double rate;
        // The worker's own pool, sized as the burn-down benchmark sizes it: the reader's four would starve it.
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(args[0]);
        config.setUsername(args[1]);
        config.setPassword(args[2].equals("-") ? "" : args[2]);
        config.setMaximumPoolSize(CONCURRENCY + 2);
        try (HikariDataSource workers = new HikariDataSource(config)) {
            rate = burnDown(workers, prefix, burn);
        }
        System.out.printf(Locale.ROOT, "%s claim: %,.0f tasks/s (burn-down of %,d)%n", phase, rate, burn);
        ConsolePagesBench.time(reads(reader), rounds)
                .forEach((name, ms) -> System.out.printf(
                        Locale.ROOT, "%s %-20s median %9.1f ms   slowest %9.1f ms%n", phase, name, ms[0], ms[1]));
        long expired = count(
                dataSource,
                "SELECT COUNT(*) FROM " + prefix + "task_attempt WHERE finished_at < "
                        + sql.nowPlusSeconds("-7 * 86400"));
        long started = System.nanoTime();
        int pruned = reader.history().prune(Duration.ofDays(7));
        double took = seconds(started);
        System.out.printf(
                Locale.ROOT,
                "%s retention: pruned %,d of %,d expired attempts in %.1f s, %,.0f rows/s%n",
                phase,
                pruned,
                expired,
                took,
                pruned / Math.max(took, 1e-9));
        BenchTables.execute(dataSource, sql.analyze(prefix + "task_attempt"));
    }

    /** The console's reads that a large history or backlog could slow down, as {@link ConsolePagesBench} times them. */
    private static Map<String, Callable<Object>> reads(Errand errand) {
        Map<String, Callable<Object>> reads = new LinkedHashMap<>(ConsolePagesBench.reads(errand));
        reads.keySet()
                .retainAll(List.of(
                        "overview-counts",
                        "overview-snapshot",
                        "overview-load",
                        "throughput",
                        "history-first-page",
                        "history-kind-failed"));
        reads.put("history-of-a-task", () -> errand.history().attempts(12_345));
        return reads;
    }

    /** Drains {@code burn} tasks with a node of the library's defaults; returns tasks per second. */
    private static double burnDown(HikariDataSource dataSource, String prefix, int burn) throws Exception {
        AtomicLong ran = new AtomicLong();
        Errand worker = Errand.builder(dataSource)
                .tablePrefix(prefix)
                .migrationsEnabled(false)
                .queue("default", CONCURRENCY)
                .register(TaskDefinition.builder("noop", Void.class, (none, ctx) -> ran.incrementAndGet())
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build())
                .build();
        long started = System.nanoTime();
        worker.start();
        try {
            while (ran.get() < burn) {
                Thread.sleep(5); // the point: a coarse wait for the count; the rate is over seconds
            }
            return ran.get() / seconds(started);
        } finally {
            worker.stop(Duration.ofSeconds(10));
        }
    }

    /** Inserts {@code count} due no-op tasks, each with its own run time, as real tasks have. */
    private static void fillPending(HikariDataSource dataSource, String prefix, FillSql sql, long count)
            throws Exception {
        BenchTables.execute(
                dataSource,
                "INSERT INTO " + prefix + "task (kind, queue, payload, priority, run_at, max_attempts) SELECT 'noop',"
                        + " 'default', 'null', 5, " + sql.nowPlusSeconds("-" + sql.i() + " / 1000000.0") + ", 5"
                        + sql.series(count));
        BenchTables.execute(dataSource, sql.analyze(prefix + "task"));
    }

    /**
     * Replaces the history with {@code rows} attempts of ten kinds, finished over the last ten days; one in twenty
     * failed, with an error. They are inserted oldest first: nodes record attempts as they finish, so a running
     * history keeps the attempts of one hour, and each batch the pruner deletes, together in its table.
     */
    private static void fillHistory(HikariDataSource dataSource, String prefix, FillSql sql, long rows)
            throws Exception {
        String table = prefix + "task_attempt";
        BenchTables.execute(dataSource, "DELETE FROM " + table);
        String i = sql.i();
        String finished = sql.nowPlusSeconds("-MOD(CAST(" + i + " AS BIGINT) * 7919, 864000)");
        BenchTables.execute(
                dataSource,
                "INSERT INTO " + table + " (task_id, kind, queue, attempt, node, started_at, finished_at, duration_ms,"
                        + " outcome, error_type, error_message) SELECT " + i + ", CONCAT('kind-', MOD(" + i + ", 10)),"
                        + " 'default', 1, CONCAT('node-', MOD(" + i + ", 4)), " + finished + ", " + finished + ", 5,"
                        + " CASE WHEN MOD(" + i + ", 20) = 0 THEN 'failed' ELSE 'succeeded' END,"
                        + " CASE WHEN MOD(" + i + ", 20) = 0 THEN 'java.io.IOException' END,"
                        + " CASE WHEN MOD(" + i + ", 20) = 0 THEN CONCAT('Timeout talking to gateway ', MOD(" + i
                        + ", 1000)) END" + sql.series(rows) + " ORDER BY MOD(CAST(" + i
                        + " AS BIGINT) * 7919, 864000) DESC");
        BenchTables.execute(dataSource, sql.analyze(table));
    }

    private static long count(HikariDataSource dataSource, String query) throws Exception {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement();
                ResultSet row = s.executeQuery(query)) {
            row.next();
            return row.getLong(1);
        }
    }

    private static double seconds(long startedNanos) {
        return (System.nanoTime() - startedNanos) / 1e9;
    }
}
