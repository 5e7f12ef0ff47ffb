package dev.errand.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.TaskKind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Whether a claim gains by leaving "old" tasks out, as seed 03 does (it scans tasks due long ago only every
 * so many polls), on our schema, on PostgreSQL or MariaDB. Each trial claims a backlog of {@code tasks}
 * fresh due tasks, 100 per claim, each claim one transaction (select with {@code FOR UPDATE SKIP LOCKED},
 * then an update of what it locked), beside {@code old} tasks due two hours ago that no claim can take,
 * with two claims that differ only in one bound:
 *
 * <ul>
 *   <li>{@code full}: every due task, as Errand claims now;
 *   <li>{@code recent}: only tasks due within the last hour ({@code run_at > now - 1 h}), the seed's
 *       scan of "new" tasks.
 * </ul>
 *
 * <p>Two kinds of old task: {@code waiting} ones (state {@code waiting}, held by an event condition: the
 * seed's "frozen" tasks; in our schema they are outside the claim index's range) and {@code pinned-away}
 * ones (pending, pinned to a node that is gone, under {@code PinPolicy.waitForNode()}: inside the range,
 * and skipped by the pin filter). The variants alternate round by round; the ratio is {@code recent} over
 * {@code full}.
 *
 * <p>Arguments: {@code <jdbcUrl> <user> <password or -> <tasks> <old> <rounds>}.
 */
public final class OldTasksBench {

    static final List<String> CASES = List.of("waiting", "pinned-away");
    private static final TaskKind<Integer> KIND = TaskKind.of("noop", Integer.class);
    private static final String PREFIX_STEM = "bench_old_";
    private static final int LIMIT = 100;

    private OldTasksBench() {}

    /** Runs the benchmark; see the class comment for the arguments. */
    public static void main(String[] args) throws Exception {
        String password = args[2].equals("-") ? "" : args[2];
        Map<String, Double> ratios = run(
                args[0],
                args[1],
                password,
                Integer.parseInt(args[3]),
                Integer.parseInt(args[4]),
                Integer.parseInt(args[5]));
        ratios.forEach((name, ratio) -> System.out.printf(Locale.ROOT, "%-12s recent/full %.2fx%n", name, ratio));
    }

    /** Runs each case and claim {@code rounds} times; returns each case's median ratio of recent to full. */
    public static Map<String, Double> run(String url, String user, String password, int tasks, int old, int rounds)
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
                Map<String, Double> ratios = new LinkedHashMap<>();
                for (String oldKind : CASES) {
                    List<Double> rs = new ArrayList<>();
                    for (int round = 1; round <= rounds; round++) {
                        Map<String, Double> rates = new LinkedHashMap<>();
                        // Alternate which claim goes first, so that neither always meets a warmer cache.
                        List<Boolean> order = round % 2 == 1 ? List.of(false, true) : List.of(true, false);
                        for (boolean recent : order) {
                            double rate = trial(dataSource, errand, prefix, postgres, oldKind, recent, tasks, old);
                            rates.put(recent ? "recent" : "full", rate);
                            System.out.printf(
                                    Locale.ROOT,
                                    "round %d %-12s %-6s %10.0f tasks/s%n",
                                    round,
                                    oldKind,
                                    recent ? "recent" : "full",
                                    rate);
                        }
                        rs.add(rates.get("recent") / rates.get("full"));
                    }
                    ratios.put(oldKind, median(rs));
                }
                return ratios;
            } finally {
                BenchTables.dropTables(dataSource, prefix);
            }
        }
    }

    private static double trial(
            HikariDataSource dataSource,
            Errand errand,
            String prefix,
            boolean postgres,
            String oldKind,
            boolean recent,
            int tasks,
            int old)
            throws Exception {
        String table = prefix + "task";
        BenchTables.execute(dataSource, "DELETE FROM " + table);
        enqueue(errand, old, oldKind.equals("pinned-away"));
        String twoHoursAgo =
                postgres ? "statement_timestamp() - INTERVAL '2 hours'" : "UTC_TIMESTAMP(6) - INTERVAL 2 HOUR";
        BenchTables.execute(
                dataSource,
                "UPDATE " + table + " SET run_at = " + twoHoursAgo
                        + (oldKind.equals("waiting") ? ", state = 'waiting'" : ""));
        enqueue(errand, tasks, false);
        BenchTables.execute(dataSource, (postgres ? "ANALYZE " : "ANALYZE TABLE ") + table);
        String sql = claimSql(table, postgres, recent);
        String update = "UPDATE " + table + " SET state = 'running', lease_owner = 'bench-node' WHERE id IN ("
                + String.join(",", java.util.Collections.nCopies(LIMIT, "?")) + ")";
        int claimed = 0;
        long begin = System.nanoTime();
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            if (!postgres) {
                c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            }
            try (PreparedStatement select = c.prepareStatement(sql);
                    PreparedStatement mark = c.prepareStatement(update)) {
                while (true) {
                    List<Long> ids = new ArrayList<>(LIMIT);
                    try (ResultSet rows = select.executeQuery()) {
                        while (rows.next()) {
                            ids.add(rows.getLong(1));
                        }
                    }
                    if (ids.isEmpty()) {
                        c.commit();
                        break;
                    }
                    for (int i = 0; i < LIMIT; i++) {
                        mark.setLong(i + 1, ids.get(Math.min(i, ids.size() - 1)));
                    }
                    mark.executeUpdate();
                    c.commit();
                    claimed += ids.size();
                }
            }
        }
        double seconds = (System.nanoTime() - begin) / 1e9;
        if (claimed != tasks) {
            throw new IllegalStateException(oldKind + " " + recent + ": claimed " + claimed + " of " + tasks);
        }
        return claimed / seconds;
    }

    /**
     * The claim's read as Errand words it for a normal node of no group (one index range per priority on
     * both databases), with the seed's bound or without.
     */
    static String claimSql(String table, boolean postgres, boolean recent) {
        String now = postgres ? "statement_timestamp()" : "UTC_TIMESTAMP(6)";
        String bound =
                recent ? " AND run_at > " + now + (postgres ? " - INTERVAL '1 hour'" : " - INTERVAL 1 HOUR") : "";
        String filter = " AND run_at <= " + now + bound
                + " AND (expires_at IS NULL OR expires_at > " + now + ")"
                + " AND (node_id IS NULL OR node_id = 'bench-node') AND (node_id IS NOT NULL OR node_group IS NULL)";
        if (postgres) {
            return "SELECT due.id FROM generate_series(1, 10) AS level(priority) CROSS JOIN LATERAL (SELECT id FROM "
                    + table + " WHERE state = 'pending' AND queue = 'default' AND priority = level.priority" + filter
                    + " ORDER BY run_at LIMIT " + LIMIT + " FOR UPDATE SKIP LOCKED) AS due LIMIT " + LIMIT;
        }
        return "SELECT id FROM " + table + " WHERE state = 'pending' AND queue = 'default'"
                + " AND priority IN (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)" + filter + " ORDER BY priority, run_at LIMIT "
                + LIMIT + " FOR UPDATE SKIP LOCKED";
    }

    private static void enqueue(Errand errand, int count, boolean pinnedAway) {
        for (int done = 0; done < count; done += 1_000) {
            List<TaskRequest> batch = new ArrayList<>();
            for (int i = done; i < Math.min(count, done + 1_000); i++) {
                TaskRequest.Builder request = TaskRequest.builder(KIND, i);
                batch.add((pinnedAway ? request.node("gone") : request).build());
            }
            errand.enqueueAll(batch);
        }
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(Double::compare);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
