package dev.errand.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Errand's own systems, the raw SQL loops and the peers run the burn-down on MariaDB and H2 too, Errand's with the
 * history on and off, and leave no table behind: the bench's set-up, statistics and clean-up speak each database's
 * SQL. It checks that the benchmark works, not how fast.
 */
class OtherDatabasesBurnDownSmokeTest {

    private static final Db[] DATABASES = {
        new Db("jdbc:mariadb://127.0.0.1:3306/test", "root", ""),
        new Db("jdbc:h2:mem:burn-down-smoke;DB_CLOSE_DELAY=-1", "sa", "")
    };

    /** A few hundred tasks after a warm-up of fifty, four workers. */
    private static Params tiny() {
        return new Params().with("n", 300).with("warm", 50).with("workers", 4);
    }

    @Test
    void errandsSystemsBurnDownOnMariaDbAndH2() throws Exception {
        for (Db db : DATABASES) {
            for (String id : new String[] {"errand", "errand-history", "errand-tx-history"}) {
                BenchSystem system = Systems.create(id, db, new Params());
                String prefix =
                        system.taskTable().substring(0, system.taskTable().length() - "task".length());
                burnDown(db, system, tiny(), prefix);
            }
        }
    }

    @Test
    void rawSqlAndPeersBurnDownOnMariaDbAndH2() throws Exception {
        Map<String, String> prefixes = new LinkedHashMap<>();
        prefixes.put("raw-sql", "bench_raw_");
        prefixes.put("raw-sql-tx", "bench_rawtx_");
        prefixes.put("raw-sql-tx-write", "bench_rawtxw_");
        prefixes.put("db-scheduler", "bench_dbs_");
        prefixes.put("jobrunr", "bench_jr_");
        for (Db db : DATABASES) {
            for (Map.Entry<String, String> system : prefixes.entrySet()) {
                // JobRunr polls every 5 s at best: no warm-up round, which would wait for a poll of its own.
                Params params = system.getKey().equals("jobrunr") ? tiny().with("warm", 0) : tiny();
                burnDown(db, Systems.create(system.getKey(), db, new Params()), params, system.getValue());
            }
        }
    }

    /** Runs a tiny burn-down of {@code system}, closes it, and checks that no table starting with the prefix is left. */
    private static void burnDown(Db db, BenchSystem system, Params params, String tablePrefix) throws Exception {
        try {
            Map<String, String> result = Scenarios.burnDown(db, system, params);
            assertThat(Double.parseDouble(result.get("rate")))
                    .as("%s on %s", system.id(), db.url())
                    .isPositive();
        } finally {
            system.close();
        }
        assertThat(tablesStartingWith(db, tablePrefix))
                .as("tables of %s left on %s", system.id(), db.url())
                .isEmpty();
    }

    /**
     * Tables and views of the current schema whose name starts with {@code prefix} (another schema's may be a
     * benchmark's running on the same server).
     */
    private static List<String> tablesStartingWith(Db db, String prefix) {
        return db.queryLines("SELECT table_name FROM information_schema.tables WHERE table_schema = "
                + db.kind().currentSchema() + " AND LOWER(table_name) LIKE '" + prefix.replace("_", "\\_") + "%'");
    }
}
