package dev.errand.internal.claim;

import dev.errand.config.ClaimOrder;
import dev.errand.internal.store.Dialect;
import dev.errand.spi.ClaimRequest;
import dev.errand.spi.ClaimStrategy;
import dev.errand.spi.ClaimedTask;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One statement: {@code UPDATE … WHERE id = ANY(ARRAY(SELECT … FOR UPDATE SKIP LOCKED LIMIT n)) RETURNING …}.
 * Rows another node is claiming are skipped, not waited for. For PostgreSQL (UPDATE … RETURNING, arrays).
 *
 * <p>Why {@code ARRAY(…)} and not {@code id IN (…)}: the locking subquery answers differently each time it runs
 * (the rows this statement already updated are skipped), and {@code IN} lets the planner put it on the inner side of
 * a nested loop over the task table, run once per row. With the heap in claim order, each run then offered the row
 * the scan was about to read, and one claim of 64 took every due task; PostgreSQL picked that plan by itself once
 * autovacuum had left a large table with few live rows in its statistics (docs/DEPLOYMENT.md, "Large tables").
 * {@code ARRAY(…)} is an init plan: it runs once per execution, whatever the plan.
 */
final class SkipLockedReturningClaim implements ClaimStrategy {

    private final Dialect dialect;
    private final String sql;
    private final String sqlExclusive;
    private final Comparator<Ranked> order;

    /** Creates the strategy for a dialect and task table, claiming in {@code order}. */
    SkipLockedReturningClaim(Dialect dialect, String table, ClaimOrder order) {
        this.dialect = dialect;
        this.sql = claim(dialect, table, false, order);
        this.sqlExclusive = claim(dialect, table, true, order);
        this.order = order == ClaimOrder.FEWEST_ATTEMPTS_FIRST ? Ranked.FEWEST_ATTEMPTS_FIRST : Ranked.DUE_FIRST;
    }

    private static String claim(Dialect dialect, String table, boolean exclusive, ClaimOrder order) {
        return "UPDATE " + table + " " + ClaimSql.takeLease(dialect) + " WHERE id = ANY(ARRAY("
                + ClaimSql.dueTasks(dialect, table, "id", true, exclusive, order) + ")) RETURNING "
                + ClaimSql.COLUMNS + ", priority, run_at";
    }

    @Override
    public boolean singleStatement() {
        return true;
    }

    @Override
    public List<ClaimedTask> claim(Connection connection, ClaimRequest request) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(request.exclusive() ? sqlExclusive : sql)) {
            statement.setString(1, request.owner());
            statement.setLong(2, request.leaseToken());
            statement.setLong(3, request.clockOffsetMicros() + request.leaseMicros());
            statement.setLong(4, request.clockOffsetMicros());
            ClaimSql.bindDue(dialect, statement, 5, request, request.limit());
            List<Ranked> claimed = new ArrayList<>(request.limit());
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    claimed.add(new Ranked(
                            ClaimSql.read(rows, request.leaseToken(), false),
                            rows.getInt("priority"),
                            rows.getObject("run_at", OffsetDateTime.class)));
                }
            }
            // RETURNING gives no order; hand tasks to workers in the order they were chosen.
            claimed.sort(order);
            List<ClaimedTask> tasks = new ArrayList<>(claimed.size());
            for (Ranked ranked : claimed) {
                tasks.add(ranked.task());
            }
            return tasks;
        }
    }

    private record Ranked(ClaimedTask task, int priority, OffsetDateTime runAt) {
        static final Comparator<Ranked> DUE_FIRST = Comparator.comparingInt(Ranked::priority)
                .thenComparing(Ranked::runAt)
                .thenComparingLong(r -> r.task().id());
        // Every claimed row's attempt went up by one, so their order by attempt is the order they were chosen in.
        static final Comparator<Ranked> FEWEST_ATTEMPTS_FIRST = Comparator.comparingInt(Ranked::priority)
                .thenComparingInt(r -> r.task().attempt())
                .thenComparing(Ranked::runAt)
                .thenComparingLong(r -> r.task().id());
    }
}
