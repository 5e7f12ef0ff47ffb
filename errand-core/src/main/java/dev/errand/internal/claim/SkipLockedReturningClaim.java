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
 * One statement: {@code UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED LIMIT n) RETURNING …}.
 * Rows another node is claiming are skipped, not waited for. For databases with UPDATE … RETURNING.
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
        return "UPDATE " + table + " " + ClaimSql.takeLease(dialect) + " WHERE id IN ("
                + ClaimSql.dueTasks(dialect, table, "id", true, exclusive, order) + ") RETURNING "
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
