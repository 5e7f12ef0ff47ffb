package dev.errand.internal.claim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.Errand;
import dev.errand.config.ClaimOrder;
import dev.errand.internal.store.H2Dialect;
import dev.errand.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The H2 claim reads the claim index in order and stops at its limit. Ordered by {@code priority, run_at} alone,
 * H2 read every due task of the queue and sorted them (a claim at a backlog of 100,000 took 150 ms), and with
 * {@code FOR UPDATE SKIP LOCKED} it read and locked every one of them before the limit (600 to 800 ms).
 */
class H2ClaimIndexTest {

    private static final String PREFIX = "h2claimidx_";
    private static final Pattern SCAN_COUNT = Pattern.compile("scanCount: (\\d+)");
    private final DataSource dataSource = TestDatabase.H2.dataSource();

    @AfterEach
    void dropTables() {
        TestDatabase.H2.dropTables(PREFIX);
    }

    @Test
    void aClaimReadsAsManyRowsAsItTakesNotTheWholeBacklog() throws Exception {
        TestDatabase.H2.dropTables(PREFIX);
        Errand.builder(dataSource).tablePrefix(PREFIX).processingEnabled(false).build();
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            // 20,000 due tasks at two priorities, each with its own run_at, and a few of a better priority
            // that are not due yet.
            s.execute("INSERT INTO " + PREFIX + "task (kind, queue, payload, priority, run_at, max_attempts)"
                    + " SELECT 'k', 'default', '{}' FORMAT JSON, 5 + MOD(X, 2),"
                    + " DATEADD(MICROSECOND, -X, CURRENT_TIMESTAMP), 5 FROM SYSTEM_RANGE(1, 20000)");
            s.execute("INSERT INTO " + PREFIX + "task (kind, queue, payload, priority, run_at, max_attempts)"
                    + " SELECT 'k', 'default', '{}' FORMAT JSON, 1, DATEADD(SECOND, 3600 + X, CURRENT_TIMESTAMP), 5"
                    + " FROM SYSTEM_RANGE(1, 20)");
            s.execute("ANALYZE TABLE " + PREFIX + "task");
            // Unlocked, as the optimistic claim reads; locked, as the SKIP LOCKED claim (H2's default) does.
            for (boolean lock : new boolean[] {false, true}) {
                String claim = ClaimSql.dueTasks(
                                new H2Dialect(),
                                PREFIX + "task",
                                ClaimSql.COLUMNS + ", priority",
                                lock,
                                ClaimOrder.DUE_FIRST)
                        .replaceFirst("queue = \\?", "queue = 'default'")
                        .replaceAll("MICROSECOND, CAST\\(\\? AS BIGINT\\)", "MICROSECOND, 0")
                        .replaceFirst("node_id = \\?", "node_id = 'n'")
                        .replaceFirst("IN \\?\\)", "IN ',')")
                        .replaceFirst("LIMIT \\?", "LIMIT 10");
                assertThat(claim).doesNotContain("?");
                try (ResultSet plan = s.executeQuery("EXPLAIN ANALYZE " + claim)) {
                    assertThat(plan.next()).isTrue();
                    String text = plan.getString(1);
                    Matcher count = SCAN_COUNT.matcher(text);
                    int counts = 0;
                    while (count.find()) {
                        counts++;
                        assertThat(Long.parseLong(count.group(1)))
                                .as("rows a claim of 10 read (locking: %s): %s", lock, text)
                                .isLessThan(100);
                    }
                    assertThat(counts).as("H2's plan: %s", text).isPositive();
                }
                try (ResultSet rows = s.executeQuery(claim)) {
                    int taken = 0;
                    while (rows.next()) {
                        assertThat(rows.getInt("priority")).isEqualTo(5);
                        taken++;
                    }
                    assertThat(taken).isEqualTo(10);
                }
            }
        }
    }
}
