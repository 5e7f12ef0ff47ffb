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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Flow limits against none, end to end on one node (issue 31): a node with one queue of concurrency
 * {@value #CONCURRENCY} drains a backlog of {@code tasks} no-op non-transactional tasks, and the trial's rate is
 * tasks per second from its start until the task table is empty. The variants alternate round by round:
 *
 * <ul>
 *   <li>{@code none}: no limit (the baseline);
 *   <li>{@code global}: the kind's concurrency limit equal to the node's concurrency, so the limit never holds a
 *       task back for long but every claim goes through the slots;
 *   <li>{@code keys}: the tasks carry 1,000 limit keys, without a per-key limit (the baseline of the next);
 *   <li>{@code per-key}: the same keys with a per-key limit of 1.
 * </ul>
 *
 * <p>Arguments: {@code <jdbcUrl> <user> <password or -> <tasks> <rounds>}. Prints one line per trial and the
 * median rate of each variant with its ratio to {@code none}. On a machine shared with other work, run several
 * rounds and read the ratios, not the rates.
 */
public final class FlowLimitBench {

    static final List<String> VARIANTS = List.of("none", "global", "keys", "per-key");
    static final int CONCURRENCY = 8;
    private static final int KEYS = 1_000;
    private static final String PREFIX_STEM = "bench_flow_";

    private FlowLimitBench() {}

    /** Runs the benchmark; see the class comment for the arguments. */
    public static void main(String[] args) throws Exception {
        String password = args[2].equals("-") ? "" : args[2];
        Map<String, Double> medians =
                run(args[0], args[1], password, Integer.parseInt(args[3]), Integer.parseInt(args[4]));
        medians.forEach((variant, rate) -> System.out.printf(
                Locale.ROOT, "%-8s %10.0f tasks/s  %.2fx%n", variant, rate, rate / medians.get("none")));
    }

    /** Runs every variant {@code rounds} times, alternating; returns each one's median tasks per second. */
    public static Map<String, Double> run(String url, String user, String password, int tasks, int rounds)
            throws Exception {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(CONCURRENCY + 6);
        Map<String, List<Double>> rates = new LinkedHashMap<>();
        try (HikariDataSource dataSource = new HikariDataSource(config)) {
            for (int round = 1; round <= rounds; round++) {
                for (String variant : VARIANTS) {
                    String prefix = PREFIX_STEM + Long.toHexString(System.nanoTime() & 0xffffffL) + "_";
                    try {
                        double rate = trial(dataSource, prefix, variant, tasks);
                        rates.computeIfAbsent(variant, v -> new ArrayList<>()).add(rate);
                        System.out.printf(Locale.ROOT, "round %d %-8s %10.0f tasks/s%n", round, variant, rate);
                    } finally {
                        BenchTables.dropTables(dataSource, prefix);
                    }
                }
            }
        }
        Map<String, Double> medians = new LinkedHashMap<>();
        rates.forEach((variant, list) -> medians.put(variant, median(list)));
        return medians;
    }

    private static double trial(HikariDataSource dataSource, String prefix, String variant, int tasks)
            throws Exception {
        TaskDefinition.Builder<Integer> kind =
                TaskDefinition.builder("noop", Integer.class, (n, ctx) -> {}).mode(ExecutionMode.NON_TRANSACTIONAL);
        if (variant.equals("global")) {
            kind.concurrencyLimit(CONCURRENCY);
        } else if (variant.equals("per-key")) {
            kind.concurrencyLimitPerKey(1);
        }
        Errand errand = Errand.builder(dataSource)
                .tablePrefix(prefix)
                .queue("default", CONCURRENCY)
                .pollInterval(Duration.ofMillis(50))
                .register(kind.build())
                .build();
        boolean keyed = variant.equals("keys") || variant.equals("per-key");
        for (int done = 0; done < tasks; done += 1_000) {
            List<TaskRequest> batch = new ArrayList<>();
            for (int i = done; i < Math.min(tasks, done + 1_000); i++) {
                TaskRequest.Builder request = TaskRequest.builder("noop", i);
                batch.add(keyed ? request.limitKey("key-" + (i % KEYS)).build() : request.build());
            }
            errand.enqueueAll(batch);
        }
        long begin = System.nanoTime();
        errand.start();
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            while (true) {
                try (ResultSet rows = s.executeQuery("SELECT COUNT(*) FROM " + prefix + "task")) {
                    rows.next();
                    if (rows.getLong(1) == 0) {
                        break;
                    }
                }
                if (System.nanoTime() - begin > Duration.ofMinutes(10).toNanos()) {
                    throw new IllegalStateException(variant + ": the backlog did not drain within 10 minutes");
                }
                Thread.sleep(10); // the measurement's resolution: the drain has no completion signal to wait on
            }
        }
        double seconds = (System.nanoTime() - begin) / 1e9;
        errand.stop(Duration.ofSeconds(10));
        return tasks / seconds;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(Double::compare);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
