package dev.errand.internal.claim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.Errand;
import dev.errand.config.ClaimOrder;
import dev.errand.internal.store.H2Dialect;
import dev.errand.spi.ClaimRequest;
import dev.errand.spi.ClaimedTask;
import dev.errand.testkit.TestDatabase;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The H2 claim reads the claim index in order and stops at its limit. Ordered by {@code priority, run_at} alone,
 * H2 read every due task of the queue and sorted them (a claim at a backlog of 100,000 took 150 ms), and with
 * {@code FOR UPDATE SKIP LOCKED} it read and locked every one of them before the limit (600 to 800 ms). The claim
 * therefore picks its tasks with a read that locks nothing and then locks them by primary key, in two statements:
 * as one (an {@code IN} subquery), H2 ran the subquery again for every row it read.
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
            // The read that picks the tasks (it locks nothing), and the locking read of the ids it found.
            String due = ClaimSql.dueTasks(
                            new H2Dialect(), PREFIX + "task", "id, priority", false, ClaimOrder.DUE_FIRST)
                    .replaceFirst("queue = \\?", "queue = 'default'")
                    .replaceAll("MICROSECOND, CAST\\(\\? AS BIGINT\\)", "MICROSECOND, 0")
                    .replaceFirst("node_id = \\?", "node_id = 'n'")
                    .replaceFirst("IN \\?\\)", "IN ',')")
                    .replaceFirst("LIMIT \\?", "LIMIT 10");
            assertThat(due).doesNotContain("?");
            assertReadsFewerThan(s, due, 100);
            List<Long> ids = new ArrayList<>();
            try (ResultSet rows = s.executeQuery(due)) {
                while (rows.next()) {
                    assertThat(rows.getInt("priority")).isEqualTo(5);
                    ids.add(rows.getLong("id"));
                }
            }
            assertThat(ids).hasSize(10);
            String lock = ClaimSql.lockByIds(new H2Dialect(), PREFIX + "task", "id", 10, ClaimOrder.DUE_FIRST)
                    .replace("?", "ARRAY[" + ids.stream().map(String::valueOf).collect(Collectors.joining(", ")) + "]");
            // By primary key: one lookup per id, not a walk of the backlog.
            assertReadsFewerThan(s, lock, 12);
        }
        // And the whole claim, as a node runs it: no statement that locks holds a subquery, which H2 would run
        // again for every row it reads.
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            List<String> statements = new ArrayList<>();
            Connection recording = (Connection) Proxy.newProxyInstance(
                    getClass().getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                        if (method.getName().equals("prepareStatement")) {
                            statements.add((String) args[0]);
                        }
                        try {
                            return method.invoke(c, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            List<ClaimedTask> claimed = ClaimSql.lockDue(
                    recording,
                    new H2Dialect(),
                    PREFIX + "task",
                    new ClaimSql.Shape(false, "", ClaimOrder.DUE_FIRST),
                    new ClaimRequest("default", 10, "n", 1L, 1L, 0L),
                    10,
                    List.of());
            assertThat(claimed).hasSize(10);
            assertThat(statements).hasSize(2);
            assertThat(statements)
                    .filteredOn(sql -> sql.contains("FOR UPDATE"))
                    .singleElement()
                    .satisfies(sql -> assertThat(sql.split("SELECT", -1))
                            .as("one SELECT in: %s", sql)
                            .hasSize(2));
            c.rollback();
        }
    }

    private static void assertReadsFewerThan(Statement s, String sql, long rows) throws Exception {
        try (ResultSet plan = s.executeQuery("EXPLAIN ANALYZE " + sql)) {
            assertThat(plan.next()).isTrue();
            String text = plan.getString(1);
            Matcher count = SCAN_COUNT.matcher(text);
            int counts = 0;
            while (count.find()) {
                counts++;
                assertThat(Long.parseLong(count.group(1)))
                        .as("rows read: %s", text)
                        .isLessThan(rows);
            }
            assertThat(counts).as("H2's plan: %s", text).isPositive();
        }
    }
}
