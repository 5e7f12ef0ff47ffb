package dev.errand.internal.claim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.Errand;
import dev.errand.config.ClaimOrder;
import dev.errand.internal.store.MariaDbDialect;
import dev.errand.internal.store.PostgresDialect;
import dev.errand.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * With the pin filter, the claim of a normal and of an exclusive node still reads the claim index, on
 * PostgreSQL (one index range per priority) and MariaDB (a range read, no sort), with tasks pinned to
 * nodes and groups in the table.
 */
class PinnedClaimPlanTest {

    private final String prefix = TestDatabase.newPrefix();

    @AfterEach
    void dropTables() {
        TestDatabase.POSTGRES.dropTables(prefix);
        TestDatabase.MARIADB.dropTables(prefix);
    }

    @Test
    void postgresClaimsThroughTheClaimIndex() throws Exception {
        TestDatabase db = TestDatabase.POSTGRES;
        Errand.builder(db.dataSource())
                .tablePrefix(prefix)
                .processingEnabled(false)
                .build();
        try (Connection c = db.dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.execute("INSERT INTO " + prefix + "task (kind, queue, priority, run_at, max_attempts, node_id,"
                    + " node_group) SELECT 'k', 'default', 1 + g % 10, now() - g * interval '1 millisecond', 5,"
                    + " CASE WHEN g % 3 = 0 THEN 'n' || (g % 7) END, CASE WHEN g % 3 = 1 THEN 'g' || (g % 5) END"
                    + " FROM generate_series(1, 5000) AS g");
            s.execute("ANALYZE " + prefix + "task");
            for (boolean exclusive : new boolean[] {false, true}) {
                String sql = ClaimSql.dueTasks(
                        new PostgresDialect(), prefix + "task", "id", true, exclusive, ClaimOrder.DUE_FIRST);
                String plan = explain(c, "EXPLAIN " + sql, "default", 0L, 0L, "n1", ",g1,g2,", 10, 10);
                assertThat(plan).as("exclusive=" + exclusive).contains(prefix + "task_claim_idx");
                assertThat(plan).doesNotContain("Seq Scan");
            }
        }
    }

    @Test
    void mariaDbClaimsThroughTheClaimIndexWithoutASort() throws Exception {
        TestDatabase db = TestDatabase.MARIADB;
        Errand.builder(db.dataSource())
                .tablePrefix(prefix)
                .processingEnabled(false)
                .build();
        try (Connection c = db.dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.execute("INSERT INTO " + prefix + "task (kind, queue, payload, priority, run_at, max_attempts, node_id,"
                    + " node_group) SELECT 'k', 'default', '{}', 1 + seq % 10, TIMESTAMPADD(MICROSECOND, -1000 *"
                    + " CAST(seq AS SIGNED), UTC_TIMESTAMP(6)), 5, CASE WHEN seq % 3 = 0 THEN CONCAT('n', seq % 7)"
                    + " END, CASE WHEN seq % 3 = 1 THEN CONCAT('g', seq % 5) END FROM seq_1_to_5000");
            s.execute("ANALYZE TABLE " + prefix + "task");
            for (boolean exclusive : new boolean[] {false, true}) {
                String sql = ClaimSql.dueTasks(
                        new MariaDbDialect(), prefix + "task", "id", true, exclusive, ClaimOrder.DUE_FIRST);
                try (PreparedStatement explain = c.prepareStatement("EXPLAIN " + sql)) {
                    bind(explain, "default", 0L, 0L, "n1", ",g1,g2,", 10);
                    try (ResultSet plan = explain.executeQuery()) {
                        assertThat(plan.next()).isTrue();
                        assertThat(plan.getString("key"))
                                .as("exclusive=" + exclusive)
                                .isEqualTo(prefix + "task_claim_idx");
                        assertThat(plan.getString("type")).isEqualTo("range");
                        assertThat(plan.getString("Extra")).doesNotContain("filesort");
                    }
                }
            }
        }
    }

    private static String explain(Connection c, String sql, Object... parameters) throws Exception {
        List<String> lines = new ArrayList<>();
        try (PreparedStatement explain = c.prepareStatement(sql)) {
            bind(explain, parameters);
            try (ResultSet plan = explain.executeQuery()) {
                while (plan.next()) {
                    lines.add(plan.getString(1));
                }
            }
        }
        return String.join("\n", lines);
    }

    private static void bind(PreparedStatement statement, Object... parameters) throws Exception {
        for (int i = 0; i < parameters.length; i++) {
            statement.setObject(i + 1, parameters[i]);
        }
    }
}
