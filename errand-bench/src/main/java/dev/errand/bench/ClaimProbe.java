package dev.errand.bench;

import dev.errand.ClaimStrategies;
import dev.errand.bench.systems.ErrandSystem;
import dev.errand.internal.claim.DialectClaimEnvironment;
import dev.errand.internal.store.PostgresDialect;
import dev.errand.spi.ClaimRequest;
import dev.errand.spi.ClaimStrategy;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Times Errand's own claim statement (the default claim strategy, exactly as the engine builds it) on
 * a table, each claim in a transaction that is rolled back, and captures its plan with {@code EXPLAIN
 * (ANALYZE, BUFFERS)} by replaying the captured SQL with the captured parameters.
 */
public final class ClaimProbe {

    private ClaimProbe() {}

    /**
     * The claim-index problem: {@code future} tasks scheduled a day ahead at priority 1, and {@code due}
     * due tasks at priority 5. Measures the claim, then burns the due tasks down.
     */
    static Map<String, String> claimPlan(Db db, BenchSystem system, Params p) throws Exception {
        if (!(system instanceof ErrandSystem)) {
            throw new IllegalArgumentException("claim-plan measures Errand's claim only");
        }
        int future = p.integer("future", 1_000_000);
        int due = p.integer("due", 20_000);
        system.setUp();
        String prefix = system.taskTable().substring(0, system.taskTable().length() - "task".length());
        db.execute(
                ErrandSystem.prefillSql(db, prefix, future, 1, "86400"),
                ErrandSystem.prefillSql(db, prefix, due, 5, "0"),
                "VACUUM ANALYZE " + system.taskTable());
        Map<String, String> r = new LinkedHashMap<>(measure(db, system.taskTable(), p.integer("claims", 20), true));
        Probe probe = new Probe(0);
        system.prepareWorkers(p.integer("workers", 8), probe);
        long begin = System.nanoTime();
        system.startWorkers();
        probe.awaitRuns(due, 20 * 60_000L);
        double seconds = (System.nanoTime() - begin) / 1e9;
        system.stopWorkers();
        r.put("rate", Scenarios.fmt(due / seconds));
        return r;
    }

    /** Average milliseconds per claim of 100 over {@code claims} claims, and the plan if asked. */
    public static Map<String, String> measure(Db db, String table, int claims, boolean explain) throws Exception {
        ClaimStrategy strategy =
                ClaimStrategies.skipLocked().create(new DialectClaimEnvironment(new PostgresDialect(), table));
        Map<String, String> r = new LinkedHashMap<>();
        try (Connection raw = DriverManager.getConnection(db.url(), db.user(), db.password())) {
            raw.setAutoCommit(false);
            Capture capture = new Capture();
            Connection connection = capture.wrap(raw);
            ClaimRequest request = new ClaimRequest("default", 100, "probe", 42L, 60_000_000L, 0L);
            strategy.claim(connection, request); // warm the plan cache
            raw.rollback();
            long total = 0;
            int claimed = 0;
            for (int i = 0; i < claims; i++) {
                long begin = System.nanoTime();
                claimed = strategy.claim(raw, request).size();
                total += System.nanoTime() - begin;
                raw.rollback();
            }
            r.put("claim_ms", Scenarios.fmt(total / 1e6 / Math.max(1, claims)));
            r.put("claimed_per_claim", Integer.toString(claimed));
            if (explain && capture.sql != null) {
                r.put("plan", explain(raw, capture));
            }
        }
        return r;
    }

    private static String explain(Connection connection, Capture capture) throws Exception {
        List<String> lines = new ArrayList<>();
        try (PreparedStatement statement =
                connection.prepareStatement("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) " + capture.sql)) {
            for (Map.Entry<Integer, Object> parameter : capture.parameters.entrySet()) {
                statement.setObject(parameter.getKey(), parameter.getValue());
            }
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    lines.add(rows.getString(1));
                }
            }
        } finally {
            connection.rollback();
        }
        // One line in the result file: the report turns the separators back into line breaks.
        return String.join(" || ", lines).replace('\t', ' ');
    }

    /** Records the first statement prepared on a connection and the parameters bound to it. */
    private static final class Capture {
        String sql;
        final Map<Integer, Object> parameters = new TreeMap<>();

        Connection wrap(Connection target) {
            InvocationHandler handler = (proxy, method, args) -> {
                Object result = invoke(method, target, args);
                if (method.getName().equals("prepareStatement") && sql == null) {
                    sql = (String) args[0];
                    return wrapStatement((PreparedStatement) result);
                }
                return result;
            };
            return (Connection) Proxy.newProxyInstance(
                    Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, handler);
        }

        PreparedStatement wrapStatement(PreparedStatement target) {
            InvocationHandler handler = (proxy, method, args) -> {
                if (method.getName().startsWith("set")
                        && args != null
                        && args.length == 2
                        && args[0] instanceof Integer index) {
                    parameters.put(index, args[1]);
                }
                return invoke(method, target, args);
            };
            return (PreparedStatement) Proxy.newProxyInstance(
                    PreparedStatement.class.getClassLoader(), new Class<?>[] {PreparedStatement.class}, handler);
        }

        private static Object invoke(java.lang.reflect.Method method, Object target, Object[] args) throws Throwable {
            try {
                return method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }
}
