package dev.errand.internal.claim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.Errand;
import dev.errand.config.ClaimOrder;
import dev.errand.internal.store.MariaDbDialect;
import dev.errand.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The MariaDB claim reads the claim index as one range per priority: tasks of a better priority that
 * are not due yet are outside every range, so MariaDB's own plan estimate does not count them.
 */
class MariaDbClaimIndexTest {

    private static final String PREFIX = "claimidx_";
    private final DataSource dataSource = TestDatabase.MARIADB.dataSource();

    @AfterEach
    void dropTables() {
        TestDatabase.MARIADB.dropTables(PREFIX);
    }

    @Test
    void claimSkipsFutureTasksOfABetterPriorityInsteadOfScanningThem() throws Exception {
        TestDatabase.MARIADB.dropTables(PREFIX);
        Errand.builder(dataSource).tablePrefix(PREFIX).processingEnabled(false).build();
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            s.execute("INSERT INTO " + PREFIX + "task (kind, queue, payload, priority, run_at, max_attempts)"
                    + " SELECT 'k', 'default', '{}', 1, TIMESTAMPADD(SECOND, 86400 - CAST(seq AS SIGNED),"
                    + " UTC_TIMESTAMP(6)), 5 FROM seq_1_to_5000");
            s.execute("INSERT INTO " + PREFIX + "task (kind, queue, payload, priority, run_at, max_attempts)"
                    + " SELECT 'k', 'default', '{}', 5, TIMESTAMPADD(SECOND, -1 - CAST(seq AS SIGNED),"
                    + " UTC_TIMESTAMP(6)), 5 FROM seq_1_to_20");
            s.execute("ANALYZE TABLE " + PREFIX + "task");
            String claim = ClaimSql.dueTasks(
                            new MariaDbDialect(), PREFIX + "task", ClaimSql.COLUMNS, true, ClaimOrder.DUE_FIRST)
                    .replaceFirst("queue = \\?", "queue = 'default'")
                    .replaceAll("MICROSECOND, \\?", "MICROSECOND, 0")
                    .replaceFirst("node_id = \\?", "node_id = 'n'")
                    .replaceFirst("IN \\?\\)", "IN ',')")
                    .replaceFirst("LIMIT \\?", "LIMIT 10");
            try (ResultSet plan = s.executeQuery("EXPLAIN " + claim)) {
                assertThat(plan.next()).isTrue();
                assertThat(plan.getString("type")).isEqualTo("range");
                assertThat(plan.getString("Extra")).doesNotContain("filesort");
                assertThat(plan.getLong("rows"))
                        .as("rows MariaDB expects to read")
                        .isLessThan(500);
            }
        }
    }
}
