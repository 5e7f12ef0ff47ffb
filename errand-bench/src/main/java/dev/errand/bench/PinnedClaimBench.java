package dev.errand.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.errand.ClaimStrategies;
import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.internal.claim.DialectClaimEnvironment;
import dev.errand.internal.store.Dialect;
import dev.errand.internal.store.MariaDbDialect;
import dev.errand.internal.store.PostgresDialect;
import dev.errand.spi.ClaimRequest;
import dev.errand.spi.ClaimStrategy;
import dev.errand.task.TaskKind;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Claim throughput with pinning against without, on PostgreSQL or MariaDB: Errand's own claim statement
 * (the default strategy, as the engine builds it) claims a backlog of {@code tasks} due tasks, 100 per
 * claim, each claim committed, until none is left. The variants alternate round by round, so that their
 * ratios hold while the machine's speed drifts:
 *
 * <ul>
 *   <li>{@code unpinned}: unpinned tasks, claimed by a normal node (the baseline);
 *   <li>{@code group}: tasks pinned to the node's group, claimed by that node;
 *   <li>{@code node}: tasks pinned to the node itself;
 *   <li>{@code exclusive}: tasks pinned to the group, claimed by an exclusive node;
 *   <li>{@code walk-past}: unpinned tasks behind as many older due tasks pinned to another node, which the
 *       claim must walk past (the pin filter applies to the rows the claim index finds).
 * </ul>
 *
 * <p>Arguments: {@code <jdbcUrl> <user> <password or -> <tasks> <rounds>}. Prints one line per trial and the
 * median tasks per second of each variant with its ratio to {@code unpinned}.
 */
public final class PinnedClaimBench {

    static final List<String> VARIANTS = List.of("unpinned", "group", "node", "exclusive", "walk-past");
    private static final TaskKind<Integer> KIND = TaskKind.of("noop", Integer.class);
    /** Each run's tables get a fresh prefix and are dropped afterwards: a schema left by another version never gets in the way. */
    private static final String PREFIX_STEM = "bench_pin_";

    private PinnedClaimBench() {}

    /** Runs the benchmark; see the class comment for the arguments. */
    public static void main(String[] args) throws Exception {
        // "-" stands for an empty password, which a command line cannot always pass.
        String password = args[2].equals("-") ? "" : args[2];
        Map<String, Double> medians =
                run(args[0], args[1], password, Integer.parseInt(args[3]), Integer.parseInt(args[4]));
        medians.forEach((variant, rate) -> System.out.printf(
                Locale.ROOT, "%-10s %10.0f tasks/s  %.2fx%n", variant, rate, rate / medians.get("unpinned")));
    }

    /** Runs every variant {@code rounds} times, alternating; returns each one's median tasks per second. */
    public static Map<String, Double> run(String url, String user, String password, int tasks, int rounds)
            throws Exception {
        String prefix = BenchTables.runPrefix(PREFIX_STEM);
        try (HikariDataSource dataSource = BenchTables.pool(url, user, password)) {
            try {
                return runVariants(dataSource, url, prefix, tasks, rounds);
            } finally {
                BenchTables.dropTables(dataSource, prefix);
            }
        }
    }

    private static Map<String, Double> runVariants(
            HikariDataSource dataSource, String url, String prefix, int tasks, int rounds) throws Exception {
        Errand errand = Errand.builder(dataSource)
                .tablePrefix(prefix)
                .processingEnabled(false)
                .build();
        Dialect dialect = url.startsWith("jdbc:postgresql") ? new PostgresDialect() : new MariaDbDialect();
        ClaimStrategy strategy =
                ClaimStrategies.skipLocked().create(new DialectClaimEnvironment(dialect, prefix + "task"));
        Map<String, List<Double>> rates = new LinkedHashMap<>();
        for (int round = 1; round <= rounds; round++) {
            for (String variant : VARIANTS) {
                double rate = trial(dataSource, errand, strategy, new Variant(variant, prefix), tasks);
                rates.computeIfAbsent(variant, v -> new ArrayList<>()).add(rate);
                System.out.printf(Locale.ROOT, "round %d %-10s %10.0f tasks/s%n", round, variant, rate);
            }
        }
        Map<String, Double> medians = new LinkedHashMap<>();
        rates.forEach((variant, list) -> medians.put(variant, median(list)));
        return medians;
    }

    /** One variant's name and the run's table prefix. */
    private record Variant(String name, String prefix) {}

    private static double trial(
            HikariDataSource dataSource, Errand errand, ClaimStrategy strategy, Variant variant, int tasks)
            throws Exception {
        BenchTables.execute(dataSource, "DELETE FROM " + variant.prefix() + "task");
        if (variant.name().equals("walk-past")) {
            // Older due tasks pinned to another node come first in the claim index.
            enqueue(errand, tasks, r -> r.node("elsewhere"));
        }
        UnaryOperator<TaskRequest.Builder> pin =
                switch (variant.name()) {
                    case "group", "exclusive" -> r -> r.nodeGroup("bench");
                    case "node" -> r -> r.node("bench-node");
                    default -> r -> r;
                };
        enqueue(errand, tasks, pin);
        BenchTables.execute(
                dataSource,
                dataSource.getJdbcUrl().startsWith("jdbc:postgresql")
                        ? "ANALYZE " + variant.prefix() + "task"
                        : "ANALYZE TABLE " + variant.prefix() + "task");
        ClaimRequest request = new ClaimRequest(
                "default",
                100,
                "bench-node",
                42L,
                600_000_000L,
                0L,
                List.of("bench"),
                variant.name().equals("exclusive"));
        int claimed = 0;
        long begin = System.nanoTime();
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            while (true) {
                int got = strategy.claim(c, request).size();
                c.commit();
                if (got == 0) {
                    break;
                }
                claimed += got;
            }
        }
        double seconds = (System.nanoTime() - begin) / 1e9;
        if (claimed != tasks) {
            throw new IllegalStateException(variant + ": claimed " + claimed + " of " + tasks + " tasks");
        }
        return claimed / seconds;
    }

    static void enqueue(Errand errand, int tasks, UnaryOperator<TaskRequest.Builder> pin) {
        for (int done = 0; done < tasks; done += 1_000) {
            List<TaskRequest> batch = new ArrayList<>();
            for (int i = done; i < Math.min(tasks, done + 1_000); i++) {
                batch.add(pin.apply(TaskRequest.builder(KIND, i)).build());
            }
            errand.enqueueAll(batch);
        }
    }

    static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(Double::compare);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
