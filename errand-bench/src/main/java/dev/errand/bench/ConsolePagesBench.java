package dev.errand.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.errand.Errand;
import dev.errand.admin.TaskOrder;
import dev.errand.admin.TaskQuery;
import dev.errand.batch.BatchQuery;
import dev.errand.history.AttemptOutcome;
import dev.errand.history.AttemptQuery;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Every console page's reads at scale, beside {@link TaskListBench} (which times the Tasks page): fills the task
 * table with {@code tasks} rows as {@link TaskListBench#fill} does, turns one in twenty into a waiting task with a
 * condition on one of 1,000 event names, writes one attempt per finished task into the attempt history (finished
 * over the last day, so about 42,000 fall in the last hour), and 10,000 batches with their counters; then the
 * planner's statistics ({@code VACUUM ANALYZE} on PostgreSQL, as autovacuum would after the insert). Then it times,
 * {@code rounds} times each after a warm-up call, each admin read a console page makes, uncached (the console
 * caches the overview's two counts for {@code errand.stats.cache-duration}; this is the cost of a miss):
 *
 * <ul>
 *   <li>Overview ({@code GET /api/overview}): {@code overview-counts} ({@code TaskAdmin.counts}, the one grouped
 *       count, which the console now runs only when its stored snapshot is too old, in the background when it is
 *       slow), {@code overview-snapshot} ({@code TaskAdmin.countsSnapshot}: the stored counts, what the overview
 *       reads on a refresh), {@code overview-load} ({@code TaskAdmin.load}: due, lag, failed, overdue), {@code throughput}
 *       ({@code HistoryAdmin.throughput}, the last hour per minute), {@code node-throughput}
 *       ({@code HistoryAdmin.nodeThroughput}, what it reads instead with the history off), {@code nodes-and-leader}
 *       ({@code ClusterAdmin.nodes}, {@code leader}, {@code queueControls});
 *   <li>Schedules: {@code schedules} ({@code ScheduleAdmin.list});
 *   <li>Batches: {@code batches} (the newest 50, {@code BatchAdmin.list});
 *   <li>Processes: {@code processes} ({@code ProcessAdmin.list}, 50);
 *   <li>Events ({@code GET /api/events}): {@code events-waiting} (200 waiting tasks with their conditions),
 *       {@code events-counts} (waiting tasks per event name over all of them), {@code events-premature};
 *   <li>Cluster ({@code GET /api/cluster}): {@code cluster} (nodes, leader, queue controls, due per queue);
 *   <li>History ({@code GET /api/history}, which counts the matches up to 10,000): {@code history-first-page-exact}
 *       (the newest 50 with the exact total), {@code history-first-page} (the same, counted up to 10,000),
 *       {@code history-kind-failed} (failed attempts of a kind), {@code history-error-text-all} (text in the error over the whole
 *       history) and {@code history-error-text} (the same over the last hour, the console's default).
 * </ul>
 *
 * <p>Arguments: {@code <jdbcUrl> <user> <password or -> <tasks> <rounds>}. PostgreSQL, MariaDB and H2 (with the H2
 * driver on the class path, which this module does not bring).
 */
public final class ConsolePagesBench {

    private static final String PREFIX_STEM = "bench_pages_";
    private static final int BATCHES = 10_000;
    private static final int EVENT_NAMES = 1_000;

    private ConsolePagesBench() {}

    /** Runs the benchmark; see the class comment for the arguments. */
    public static void main(String[] args) throws Exception {
        String password = args[2].equals("-") ? "" : args[2];
        Map<String, double[]> figures =
                run(args[0], args[1], password, Integer.parseInt(args[3]), Integer.parseInt(args[4]));
        figures.forEach((name, ms) ->
                System.out.printf(Locale.ROOT, "%-20s median %8.1f ms   slowest %8.1f ms%n", name, ms[0], ms[1]));
    }

    /** Fills, times and drops; returns each read's median and slowest time in milliseconds. */
    public static Map<String, double[]> run(String url, String user, String password, int tasks, int rounds)
            throws Exception {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(4);
        String prefix = PREFIX_STEM + Long.toHexString(System.nanoTime() & 0xffffffL) + "_";
        FillSql sql = FillSql.of(url);
        try (HikariDataSource dataSource = new HikariDataSource(config)) {
            Errand errand = Errand.builder(dataSource)
                    .tablePrefix(prefix)
                    .processingEnabled(false)
                    .historyEnabled(true)
                    .build();
            try {
                long fillStart = System.nanoTime();
                fill(dataSource, prefix, sql, tasks);
                System.out.printf(
                        Locale.ROOT,
                        "filled %,d tasks, their attempts, waiting conditions and %,d batches in %.1f s%n",
                        tasks,
                        BATCHES,
                        (System.nanoTime() - fillStart) / 1e9);
                return time(reads(errand), rounds);
            } finally {
                errand.stop(Duration.ofSeconds(5));
                BenchTables.dropTables(dataSource, prefix);
            }
        }
    }

    private static void fill(HikariDataSource dataSource, String prefix, FillSql sql, int tasks) throws Exception {
        String task = prefix + "task";
        TaskListBench.fill(dataSource, task, sql, tasks);
        // One succeeded task in twenty waits instead, on one of 1,000 event names.
        BenchTables.execute(
                dataSource,
                "UPDATE " + task + " SET state = 'waiting', finished_at = NULL WHERE MOD(id, 20) = 5"
                        + " AND state = 'succeeded'");
        BenchTables.execute(
                dataSource,
                "INSERT INTO " + prefix + "task_condition (task_id, event) SELECT id, CONCAT('event-', MOD(id, "
                        + EVENT_NAMES + ")) FROM " + task + " WHERE state = 'waiting'");
        // One attempt per finished task, spread over the last day, inserted oldest first: nodes record attempts as
        // they finish, so a running history keeps the attempts of one hour together in its table.
        String finished = sql.nowPlusSeconds("-MOD(id, 86400)");
        BenchTables.execute(
                dataSource,
                "INSERT INTO " + prefix + "task_attempt (task_id, kind, queue, attempt, node, started_at,"
                        + " finished_at, duration_ms, outcome, error_type, error_message) SELECT id, kind, queue, 1,"
                        + " CONCAT('node-', MOD(id, 4)), " + finished + ", " + finished + ", 5,"
                        + " CASE state WHEN 'failed' THEN 'failed' WHEN 'cancelled' THEN 'cancelled'"
                        + " ELSE 'succeeded' END,"
                        + " CASE WHEN state = 'failed' THEN 'java.io.IOException' END, last_error FROM " + task
                        + " WHERE finished_at IS NOT NULL ORDER BY MOD(id, 86400) DESC, id");
        String i = sql.i();
        String now = sql.nowPlusSeconds("0");
        BenchTables.execute(
                dataSource,
                "INSERT INTO " + prefix + "batch (id, total, created_at) SELECT " + i + ", 100, " + now
                        + sql.series(BATCHES));
        BenchTables.execute(
                dataSource,
                "INSERT INTO " + prefix + "batch_counter (batch_id, stripe, succeeded, failed, cancelled) SELECT " + i
                        + ", 0, MOD(" + i + ", 101), 0, 0" + sql.series(BATCHES));
        // VACUUM on PostgreSQL as autovacuum does after a bulk insert: it sets the visibility map, without
        // which no count is index-only and every read visits the heap, which a running system would not.
        for (String table : List.of("task", "task_condition", "task_attempt", "batch", "batch_counter")) {
            BenchTables.execute(dataSource, sql.analyze(prefix + table));
        }
    }

    /** Each read a console page makes, by the name printed. */
    static Map<String, Callable<Object>> reads(Errand errand) {
        Duration overdueAfter = Duration.ofMinutes(1);
        Map<String, Callable<Object>> reads = new LinkedHashMap<>();
        reads.put("overview-counts", () -> errand.admin().counts(overdueAfter));
        // What the overview reads instead of overview-counts: the counts stored for the cluster (the warm-up call
        // counts and stores them; the timed calls read them).
        reads.put("overview-snapshot", () -> errand.admin().countsSnapshot(overdueAfter, Duration.ofHours(1)));
        reads.put("overview-load", () -> errand.admin().load(overdueAfter));
        reads.put("throughput", () -> errand.history().throughput(Duration.ofHours(1), Duration.ofMinutes(1)));
        // What the overview reads instead when the history is off: the nodes' rows per minute (nodes x 120 rows at
        // most, whatever the task count).
        reads.put("node-throughput", () -> errand.history().nodeThroughput(Duration.ofHours(1)));
        reads.put(
                "nodes-and-leader",
                () -> List.of(
                        errand.cluster().nodes(),
                        errand.cluster().leader(),
                        errand.cluster().queueControls()));
        reads.put("schedules", () -> errand.schedules().list());
        reads.put("batches", () -> errand.batches().list(BatchQuery.newest(50)));
        reads.put("processes", () -> errand.processes().list(null, 50));
        reads.put("events-waiting", () -> errand.events().waiting(200));
        reads.put("events-counts", () -> errand.events().waitingCounts(200));
        reads.put("events-premature", () -> errand.events().premature(200));
        reads.put(
                "cluster",
                () -> List.of(
                        errand.admin().load(overdueAfter),
                        errand.cluster().nodes(),
                        errand.cluster().leader(),
                        errand.cluster().queueControls()));
        // The console counts the history's matches up to 10,000; the exact total is timed beside it.
        reads.put("history-first-page-exact", () -> errand.history()
                .search(AttemptQuery.builder().limit(50).build()));
        reads.put("history-first-page", () -> errand.history()
                .search(AttemptQuery.builder().limit(50).countUpTo(10_000).build()));
        reads.put("history-kind-failed", () -> errand.history()
                .search(AttemptQuery.builder()
                        .kind("kind-3")
                        .outcome(AttemptOutcome.FAILED)
                        .limit(50)
                        .countUpTo(10_000)
                        .build()));
        reads.put("history-error-text-all", () -> errand.history()
                .search(AttemptQuery.builder()
                        .errorContains("rare needle")
                        .limit(50)
                        .countUpTo(10_000)
                        .build()));
        // What the console searches unless given a range: the last hour (about 42,000 of the attempts here).
        reads.put("history-error-text", () -> errand.history()
                .search(AttemptQuery.builder()
                        .errorContains("rare needle")
                        .finishedWithin(Duration.ofHours(1))
                        .limit(50)
                        .countUpTo(10_000)
                        .build()));
        // The Tasks page's search of error text: over every task, and over those that ended in the last hour (the
        // console's default without a time range; about 3,000 of the tasks here).
        TaskQuery newest = TaskQuery.builder().order(TaskOrder.ID_DESCENDING).build();
        reads.put("tasks-first-page", () -> TaskListBench.page(errand.admin(), newest));
        reads.put(
                "tasks-error-text-all",
                () -> TaskListBench.page(
                        errand.admin(),
                        newest.toBuilder().errorContains("rare needle").build()));
        reads.put(
                "tasks-error-text",
                () -> TaskListBench.page(
                        errand.admin(),
                        newest.toBuilder()
                                .errorContains("rare needle")
                                .finishedWithin(Duration.ofHours(1))
                                .build()));
        return reads;
    }

    /** A warm-up call, then {@code rounds} timed calls of each read: median and slowest in milliseconds. */
    static Map<String, double[]> time(Map<String, Callable<Object>> reads, int rounds) throws Exception {
        Map<String, double[]> figures = new LinkedHashMap<>();
        for (Map.Entry<String, Callable<Object>> read : reads.entrySet()) {
            read.getValue().call();
            List<Double> ms = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                long start = System.nanoTime();
                read.getValue().call();
                ms.add((System.nanoTime() - start) / 1e6);
            }
            ms.sort(Double::compare);
            int n = ms.size();
            double median = n % 2 == 1 ? ms.get(n / 2) : (ms.get(n / 2 - 1) + ms.get(n / 2)) / 2;
            figures.put(read.getKey(), new double[] {median, ms.get(n - 1)});
        }
        return figures;
    }
}
