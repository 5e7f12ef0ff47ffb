package dev.errand.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Errand's own systems run the burn-down on MariaDB and H2 too, with the history on and off, and leave no table
 * behind: the bench's set-up, statistics and clean-up speak each database's SQL. It checks that the benchmark
 * works, not how fast.
 */
class OtherDatabasesBurnDownSmokeTest {

    @Test
    void errandsSystemsBurnDownOnMariaDbAndH2() throws Exception {
        for (Db db : new Db[] {
            new Db("jdbc:mariadb://127.0.0.1:3306/test", "root", ""),
            new Db("jdbc:h2:mem:burn-down-smoke;DB_CLOSE_DELAY=-1", "sa", "")
        }) {
            for (String id : new String[] {"errand", "errand-history", "errand-tx-history"}) {
                BenchSystem system = Systems.create(id, db, new Params());
                try {
                    Map<String, String> result = Scenarios.burnDown(
                            db,
                            system,
                            new Params().with("n", 300).with("warm", 50).with("workers", 4));
                    assertThat(Double.parseDouble(result.get("rate")))
                            .as("%s on %s", id, db.url())
                            .isPositive();
                } finally {
                    system.close();
                }
                String prefix =
                        system.taskTable().substring(0, system.taskTable().length() - "task".length());
                assertThat(db.queryLines("SELECT table_name FROM information_schema.tables WHERE LOWER(table_name)"
                                + " LIKE '" + prefix.replace("_", "\\_") + "%'"))
                        .as("tables of %s left on %s", id, db.url())
                        .isEmpty();
            }
        }
    }
}
