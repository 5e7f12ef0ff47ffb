package dev.errand.internal.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.config.ErrandSettings;
import dev.errand.config.TablePrefix;
import dev.errand.history.AttemptOutcome;
import dev.errand.history.AttemptQuery;
import dev.errand.internal.store.Dialect;
import dev.errand.internal.store.Dialects;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import dev.errand.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The history's pages go through its indexes: the newest page through the finishing-time index, and failed
 * attempts of a kind on PostgreSQL through the partial index of the attempts that did not succeed (which a plan may
 * use only when the outcome is a literal), on MariaDB and H2 through the kind index.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class HistorySearchPlanTest extends ErrandTestSupport {

    HistorySearchPlanTest(Target target) {
        super(target);
    }

    @Test
    void pagesNewestFirstAndFailuresOfAKindUseTheHistorysIndexes() throws Exception {
        node(builder()); // builds the tables
        fill(4_000);
        Dialect dialect = Dialects.detect(dataSource());
        AttemptHistory history = new AttemptHistory(
                dialect,
                ErrandSettings.builder("plan")
                        .tablePrefix(new TablePrefix(prefix))
                        .build());
        String newest = literal(history.searchSql(AttemptQuery.builder().build()));
        String failedOfAKind = literal(history.searchSql(AttemptQuery.builder()
                .kind("kind-3")
                .outcome(AttemptOutcome.FAILED)
                .build()));
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            if (database == TestDatabase.POSTGRES) {
                // Whether an index can serve each read, not which plan 4,000 rows make cheapest.
                s.execute("SET enable_seqscan = off");
                s.execute("ANALYZE " + prefix + "task_attempt");
                assertThat(plan(s, newest)).as(newest).contains(prefix + "task_attempt_finished_idx");
                assertThat(plan(s, failedOfAKind)).as(failedOfAKind).contains(prefix + "task_attempt_unsucceeded_idx");
                s.execute("RESET enable_seqscan");
            } else {
                if (database == TestDatabase.MARIADB) {
                    s.execute("ANALYZE TABLE " + prefix + "task_attempt");
                }
                assertThat(plan(s, newest)).as(newest).contains(prefix + "task_attempt_finished_idx");
                assertThat(plan(s, failedOfAKind)).as(failedOfAKind).contains(prefix + "task_attempt_kind_idx");
            }
        }
    }

    /** Attempts of ten kinds, one in twenty failed. */
    private void fill(int attempts) throws Exception {
        try (Connection c = dataSource().getConnection();
                PreparedStatement insert = c.prepareStatement("INSERT INTO " + prefix + "task_attempt"
                        + " (task_id, kind, queue, attempt, finished_at, outcome) VALUES (?, ?, 'default', 1,"
                        + " CURRENT_TIMESTAMP, ?)")) {
            c.setAutoCommit(false);
            for (int n = 0; n < attempts; n++) {
                insert.setLong(1, n);
                insert.setString(2, "kind-" + n % 10);
                insert.setString(3, n % 20 == 3 ? "failed" : "succeeded");
                insert.addBatch();
            }
            insert.executeBatch();
            c.commit();
        }
    }

    /** The statement with its parameters filled in, in order: the kind, then the limit and offset. */
    private static String literal(String sql) {
        return sql.replaceFirst("kind = \\?", "kind = 'kind-3'")
                .replaceFirst("LIMIT \\? OFFSET \\?", "LIMIT 50 OFFSET 0");
    }

    private static String plan(Statement s, String sql) throws Exception {
        StringBuilder plan = new StringBuilder();
        try (ResultSet rows = s.executeQuery("EXPLAIN " + sql)) {
            int columns = rows.getMetaData().getColumnCount();
            while (rows.next()) {
                for (int i = 1; i <= columns; i++) {
                    plan.append(rows.getString(i)).append(' ');
                }
                plan.append('\n');
            }
        }
        return plan.toString().toLowerCase();
    }
}
