package dev.errand.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.errand.Errand;
import dev.errand.admin.KeysetPage;
import dev.errand.admin.PageRequest;
import dev.errand.admin.TaskAdmin;
import dev.errand.admin.TaskOrder;
import dev.errand.admin.TaskQuery;
import dev.errand.task.Task;
import dev.errand.task.TaskState;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The console's task list at scale: fills the task table with {@code tasks} rows in one set-based INSERT
 * (three quarters succeeded under retention, a tenth failed with an error, some cancelled and pending, ten kinds,
 * one failed task in 50,000 with a rare error text), then times each read the Tasks page and its API make through
 * {@link TaskAdmin}, {@code rounds} times each, and prints the median and the slowest in milliseconds:
 *
 * <ul>
 *   <li>{@code first-page}: the newest 50 ({@code listKeyset}) and the count bounded at 10,000 ({@code count});
 *   <li>{@code deep-page}: 50 from a cursor nine tenths of the way down, and the count;
 *   <li>{@code count}: the count bounded at 10,000 alone (the estimate above it);
 *   <li>{@code failed-of-a-kind}: state and kind filtered, its page and count;
 *   <li>{@code error-text}: the rare error's text in every state, page and count; {@code failed-error-text}
 *       the same among failed tasks;
 *   <li>{@code bulk-count}: {@code countForBulk} of the failed tasks of a kind (exact);
 *   <li>{@code offset-page-deep}: for comparison, the offset page at nine tenths with its exact total ({@code list}).
 * </ul>
 *
 * <p>Arguments: {@code <jdbcUrl> <user> <password or -> <tasks> <rounds>}. PostgreSQL and MariaDB.
 */
public final class TaskListBench {

    private static final String PREFIX_STEM = "bench_list_";

    private TaskListBench() {}

    /** Runs the benchmark; see the class comment for the arguments. */
    public static void main(String[] args) throws Exception {
        String password = args[2].equals("-") ? "" : args[2];
        Map<String, double[]> figures =
                run(args[0], args[1], password, Integer.parseInt(args[3]), Integer.parseInt(args[4]));
        figures.forEach((name, ms) ->
                System.out.printf(Locale.ROOT, "%-18s median %8.1f ms   slowest %8.1f ms%n", name, ms[0], ms[1]));
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
        boolean postgres = url.startsWith("jdbc:postgresql");
        try (HikariDataSource dataSource = new HikariDataSource(config)) {
            Errand errand = Errand.builder(dataSource)
                    .tablePrefix(prefix)
                    .processingEnabled(false)
                    .build();
            try {
                long fillStart = System.nanoTime();
                fill(dataSource, prefix + "task", postgres, tasks);
                System.out.printf(
                        Locale.ROOT, "filled %,d tasks in %.1f s%n", tasks, (System.nanoTime() - fillStart) / 1e9);
                return time(errand.admin(), dataSource, prefix + "task", rounds);
            } finally {
                errand.stop(java.time.Duration.ofSeconds(5));
                BenchTables.dropTables(dataSource, prefix);
            }
        }
    }

    /** One INSERT … SELECT over a generated series of {@code tasks} numbers, then the planner's statistics. */
    static void fill(HikariDataSource dataSource, String table, boolean postgres, int tasks) throws Exception {
        fill(dataSource, table, postgres ? FillSql.POSTGRES : FillSql.MARIADB, tasks);
        BenchTables.execute(dataSource, (postgres ? "ANALYZE " : "ANALYZE TABLE ") + table);
    }

    /** The INSERT … SELECT alone, on PostgreSQL, MariaDB or H2. */
    static void fill(HikariDataSource dataSource, String table, FillSql sql, int tasks) throws Exception {
        String i = sql.i();
        String state = "CASE WHEN MOD(" + i + ", 20) IN (0, 1) THEN 'failed' WHEN MOD(" + i + ", 20) = 2 THEN"
                + " 'cancelled' WHEN MOD(" + i + ", 20) IN (3, 4) THEN 'pending' ELSE 'succeeded' END";
        String error = "CASE WHEN MOD(" + i + ", 50000) = 0 THEN 'rare needle: the 100% unusual_error'"
                + " WHEN MOD(" + i + ", 20) IN (0, 1, 2) THEN CONCAT('Timeout after 30 s talking to gateway ', MOD("
                + i + ", 1000)) END";
        String created = sql.nowPlusSeconds(i + " - " + tasks);
        String later = sql.nowPlusSeconds("86400");
        String finished = "CASE WHEN MOD(" + i + ", 20) IN (3, 4) THEN NULL ELSE " + created + " END";
        String runAt = "CASE WHEN MOD(" + i + ", 20) IN (3, 4) THEN " + later + " ELSE " + created + " END";
        String kind = "CONCAT('kind-', MOD(" + i + ", 10))";
        String select = "SELECT " + kind + ", 'default', '{\"n\": 1}', " + state + ", " + runAt + ", "
                + "CASE WHEN MOD(" + i + ", 20) IN (0, 1) THEN 3 ELSE 1 END, 3, " + created + ", " + finished + ", "
                + error + sql.series(tasks);
        BenchTables.execute(
                dataSource,
                "INSERT INTO " + table + " (kind, queue, payload, state, run_at, attempt, max_attempts, created_at,"
                        + " finished_at, last_error) " + select);
    }

    private static Map<String, double[]> time(TaskAdmin admin, HikariDataSource dataSource, String table, int rounds)
            throws Exception {
        long deepId;
        long total;
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement();
                ResultSet row = s.executeQuery("SELECT MIN(id), MAX(id) FROM " + table)) {
            row.next();
            deepId = row.getLong(1) + (row.getLong(2) - row.getLong(1)) / 10;
            total = row.getLong(2) - row.getLong(1) + 1;
        }
        TaskQuery newest = TaskQuery.builder().order(TaskOrder.ID_DESCENDING).build();
        TaskQuery deep = newest.toBuilder().before(deepId).build();
        TaskQuery failedOfAKind =
                newest.toBuilder().state(TaskState.FAILED).kind("kind-3").build();
        TaskQuery errorText = newest.toBuilder().errorContains("rare needle").build();
        TaskQuery failedErrorText =
                errorText.toBuilder().state(TaskState.FAILED).build();
        int deepOffset = (int) Math.min(Integer.MAX_VALUE, total * 9 / 10);
        Map<String, Callable<Object>> reads = new LinkedHashMap<>();
        reads.put("first-page", () -> page(admin, newest));
        reads.put("deep-page", () -> page(admin, deep));
        reads.put("count", () -> admin.count(newest, 10_000));
        reads.put("failed-of-a-kind", () -> page(admin, failedOfAKind));
        reads.put("error-text", () -> page(admin, errorText));
        reads.put("failed-error-text", () -> page(admin, failedErrorText));
        reads.put("bulk-count", () -> admin.countForBulk(failedOfAKind));
        reads.put(
                "offset-page-deep",
                () -> admin.list(
                        TaskQuery.builder().page(PageRequest.of(deepOffset, 50)).build()));
        Map<String, double[]> figures = new LinkedHashMap<>();
        for (Map.Entry<String, Callable<Object>> read : reads.entrySet()) {
            read.getValue().call(); // a first call to warm the statement and the cache
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

    /** What a Tasks page asks (GET /api/tasks): one keyset page and the bounded count. */
    /** A keyset page and its count bounded at 10,000, as the console's task list reads them. */
    static Object page(TaskAdmin admin, TaskQuery query) {
        KeysetPage<Task> page = admin.listKeyset(query);
        // As the console's API: a first page with nothing after it is its own count.
        boolean complete = query.after() == null && query.before() == null && !page.hasNext();
        return List.of(page, complete ? page.items().size() : admin.count(query, 10_000));
    }
}
