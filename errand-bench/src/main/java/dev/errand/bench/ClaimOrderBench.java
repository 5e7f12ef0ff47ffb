package dev.errand.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.errand.ClaimStrategies;
import dev.errand.Errand;
import dev.errand.config.ClaimOrder;
import dev.errand.internal.claim.DialectClaimEnvironment;
import dev.errand.internal.store.Dialect;
import dev.errand.internal.store.MariaDbDialect;
import dev.errand.internal.store.PostgresDialect;
import dev.errand.spi.ClaimRequest;
import dev.errand.spi.ClaimStrategy;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the opt-in claim order {@link ClaimOrder#FEWEST_ATTEMPTS_FIRST} costs against the default
 * {@link ClaimOrder#DUE_FIRST}, on PostgreSQL or MariaDB, with Errand's own claim statement (the default
 * strategy, as the engine builds it). Each trial fills a backlog of {@code tasks} due tasks of one priority, half
 * of them marked as retried twice, then:
 *
 * <ul>
 *   <li>times 20 claims of 100 at the full backlog, each rolled back ({@code claim_ms});
 *   <li>claims the whole backlog, 100 per claim, each committed ({@code tasks/s}).
 * </ul>
 *
 * <p>The orders alternate round by round. Arguments: {@code <jdbcUrl> <user> <password or -> <tasks> <rounds>}.
 */
public final class ClaimOrderBench {

    private static final String PREFIX_STEM = "bench_order_";

    private ClaimOrderBench() {}

    /** Runs the benchmark; see the class comment for the arguments. */
    public static void main(String[] args) throws Exception {
        String password = args[2].equals("-") ? "" : args[2];
        run(args[0], args[1], password, Integer.parseInt(args[3]), Integer.parseInt(args[4]));
    }

    /**
     * Runs both orders {@code rounds} times, alternating, printing each trial and the medians.
     *
     * @return each order's median burn-down rate, in tasks per second
     */
    public static Map<ClaimOrder, Double> run(String url, String user, String password, int tasks, int rounds)
            throws Exception {
        String prefix = BenchTables.runPrefix(PREFIX_STEM);
        try (HikariDataSource dataSource = BenchTables.pool(url, user, password)) {
            try {
                return runOrders(dataSource, prefix, tasks, rounds);
            } finally {
                BenchTables.dropTables(dataSource, prefix);
            }
        }
    }

    private static Map<ClaimOrder, Double> runOrders(HikariDataSource dataSource, String prefix, int tasks, int rounds)
            throws Exception {
        Errand errand = Errand.builder(dataSource)
                .tablePrefix(prefix)
                .processingEnabled(false)
                .build();
        boolean postgres = dataSource.getJdbcUrl().startsWith("jdbc:postgresql");
        Dialect dialect = postgres ? new PostgresDialect() : new MariaDbDialect();
        Map<ClaimOrder, List<Double>> claimMs = new LinkedHashMap<>();
        Map<ClaimOrder, List<Double>> rates = new LinkedHashMap<>();
        for (int round = 1; round <= rounds; round++) {
            for (ClaimOrder order : ClaimOrder.values()) {
                ClaimStrategy strategy = ClaimStrategies.skipLocked()
                        .create(new DialectClaimEnvironment(dialect, prefix + "task", order));
                BenchTables.execute(dataSource, "DELETE FROM " + prefix + "task");
                PinnedClaimBench.enqueue(errand, tasks, r -> r);
                BenchTables.execute(dataSource, "UPDATE " + prefix + "task SET attempt = 2 WHERE MOD(id, 2) = 0");
                BenchTables.execute(
                        dataSource, postgres ? "ANALYZE " + prefix + "task" : "ANALYZE TABLE " + prefix + "task");
                double ms = claimMillis(dataSource, strategy);
                double rate = burnDown(dataSource, strategy, tasks);
                claimMs.computeIfAbsent(order, o -> new ArrayList<>()).add(ms);
                rates.computeIfAbsent(order, o -> new ArrayList<>()).add(rate);
                System.out.printf(
                        Locale.ROOT,
                        "round %d %-22s %8.2f ms a claim of 100  %10.0f tasks/s%n",
                        round,
                        order,
                        ms,
                        rate);
            }
        }
        Map<ClaimOrder, Double> medians = new LinkedHashMap<>();
        for (ClaimOrder order : ClaimOrder.values()) {
            double ms = PinnedClaimBench.median(claimMs.get(order));
            double rate = PinnedClaimBench.median(rates.get(order));
            medians.put(order, rate);
            System.out.printf(
                    Locale.ROOT,
                    "median %-22s %8.2f ms a claim (%.2fx)  %10.0f tasks/s (%.2fx)%n",
                    order,
                    ms,
                    ms / PinnedClaimBench.median(claimMs.get(ClaimOrder.DUE_FIRST)),
                    rate,
                    rate / medians.get(ClaimOrder.DUE_FIRST));
        }
        return medians;
    }

    private static ClaimRequest request() {
        return new ClaimRequest("default", 100, "bench-node", 42L, 600_000_000L, 0L);
    }

    /** The mean time of 20 claims of 100 at the full backlog, each rolled back. */
    private static double claimMillis(HikariDataSource dataSource, ClaimStrategy strategy) throws Exception {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            strategy.claim(c, request());
            c.rollback();
            long begin = System.nanoTime();
            for (int i = 0; i < 20; i++) {
                strategy.claim(c, request());
                c.rollback();
            }
            return (System.nanoTime() - begin) / 1e6 / 20;
        }
    }

    /** Claims the whole backlog, 100 per committed claim; returns tasks per second. */
    private static double burnDown(HikariDataSource dataSource, ClaimStrategy strategy, int tasks) throws Exception {
        int claimed = 0;
        long begin = System.nanoTime();
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            while (true) {
                int got = strategy.claim(c, request()).size();
                c.commit();
                if (got == 0) {
                    break;
                }
                claimed += got;
            }
        }
        if (claimed != tasks) {
            throw new IllegalStateException("claimed " + claimed + " of " + tasks + " tasks");
        }
        return claimed / ((System.nanoTime() - begin) / 1e9);
    }
}
