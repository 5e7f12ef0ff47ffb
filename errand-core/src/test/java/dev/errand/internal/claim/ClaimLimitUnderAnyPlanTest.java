package dev.errand.internal.claim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.Errand;
import dev.errand.config.ClaimOrder;
import dev.errand.internal.store.PostgresDialect;
import dev.errand.spi.ClaimRequest;
import dev.errand.spi.ClaimedTask;
import dev.errand.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL's one-statement claim takes at most its limit whatever join the planner picks.
 *
 * <p>The claim's locking subquery ({@code … LIMIT n FOR UPDATE SKIP LOCKED}) gives another answer each time it
 * runs: rows it locked and the statement updated are skipped the next time. Written as {@code id IN (subquery)}, a
 * plan that puts the subquery on the inner side of a nested loop ran it once per row of the task table, and the
 * statement claimed every due task. PostgreSQL chose such a plan by itself after the first autovacuum of a bloated
 * task table (docs/DEPLOYMENT.md, "Large tables"): one claim of 64 ran for minutes and took 40,000 tasks. Here the
 * session's planner settings leave it no other join, which is what the statistics did there.
 */
class ClaimLimitUnderAnyPlanTest {

    private static final int DUE = 2_000;
    private static final int LIMIT = 10;

    private final String prefix = TestDatabase.newPrefix();

    @AfterEach
    void dropTables() {
        TestDatabase.POSTGRES.dropTables(prefix);
    }

    @Test
    void aNestedLoopOverTheWholeTableStillClaimsOnlyTheLimit() throws Exception {
        TestDatabase db = TestDatabase.POSTGRES;
        Errand.builder(db.dataSource())
                .tablePrefix(prefix)
                .processingEnabled(false)
                .build();
        try (Connection c = db.dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.execute("INSERT INTO " + prefix + "task (kind, queue, run_at, max_attempts)"
                    + " SELECT 'k', 'default', now() - (" + DUE + " - g) * interval '1 millisecond', 5"
                    + " FROM generate_series(1, " + DUE + ") AS g");
            // The heap holds the tasks in the order a claim takes them, as it does when tasks are enqueued as they
            // come due: the case where each run of the subquery found the row the scan was about to read.
            s.execute("ANALYZE " + prefix + "task");
            c.setAutoCommit(false);
            for (String method : List.of("hashjoin", "mergejoin", "hashagg", "material", "sort")) {
                s.execute("SET LOCAL enable_" + method + " = off");
            }
            SkipLockedReturningClaim claim =
                    new SkipLockedReturningClaim(new PostgresDialect(), prefix + "task", ClaimOrder.DUE_FIRST);

            List<ClaimedTask> claimed =
                    claim.claim(c, new ClaimRequest("default", LIMIT, "node-1", 7L, 30_000_000L, 0L));

            assertThat(claimed.size()).as("tasks the claim returned").isEqualTo(LIMIT);
            try (ResultSet running = s.executeQuery(
                    "SELECT COUNT(*) FROM " + prefix + "task WHERE state = 'running' AND lease_token = 7")) {
                running.next();
                assertThat(running.getInt(1)).as("rows the claim took").isEqualTo(LIMIT);
            }
            // The best due tasks, in order: the oldest run_at first.
            try (ResultSet oldest =
                    s.executeQuery("SELECT id FROM " + prefix + "task ORDER BY run_at LIMIT " + LIMIT)) {
                List<Long> ids = new java.util.ArrayList<>();
                while (oldest.next()) {
                    ids.add(oldest.getLong(1));
                }
                assertThat(claimed).extracting(ClaimedTask::id).containsExactlyElementsOf(ids);
            }
            c.rollback();
        }
    }
}
