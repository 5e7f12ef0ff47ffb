package dev.errand.internal.claim;

import dev.errand.config.ClaimOrder;
import dev.errand.internal.store.Dialect;
import dev.errand.internal.store.States;
import dev.errand.spi.ClaimRequest;
import dev.errand.spi.ClaimStrategy;
import dev.errand.spi.ClaimedTask;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Claims without row locks on the read: it reads due candidates with their {@code version}, then
 * takes each with {@code UPDATE … WHERE id = ? AND version = ? AND state = 'pending'}. Another node
 * that got there first has incremented the version, so the update changes nothing and the next
 * candidate is tried. Every claim increments the version, so a task claimed and retried since the
 * read is skipped too. It reads twice as many candidates as it needs, to ride out lost races.
 */
final class OptimisticVersionClaim implements ClaimStrategy {

    private final Dialect dialect;
    private final String select;
    private final String selectExclusive;
    private final String update;

    /** Creates the strategy for a dialect and task table, claiming in {@code order}. */
    OptimisticVersionClaim(Dialect dialect, String table, ClaimOrder order) {
        this.dialect = dialect;
        this.select = ClaimSql.dueTasks(dialect, table, ClaimSql.COLUMNS + ", version", false, order);
        this.selectExclusive = ClaimSql.dueTasks(dialect, table, ClaimSql.COLUMNS + ", version", false, true, order);
        this.update = "UPDATE " + table + " " + ClaimSql.takeLease(dialect)
                + " WHERE id = ? AND version = ? AND state = " + States.PENDING;
    }

    @Override
    public List<ClaimedTask> claim(Connection connection, ClaimRequest request) throws SQLException {
        List<Candidate> candidates = new ArrayList<>();
        try (PreparedStatement statement =
                connection.prepareStatement(request.exclusive() ? selectExclusive : select)) {
            ClaimSql.bindDue(dialect, statement, 1, request, Math.min(request.limit() * 2, request.limit() + 1_000));
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    candidates.add(
                            new Candidate(ClaimSql.read(rows, request.leaseToken(), true), rows.getLong("version")));
                }
            }
        }
        List<ClaimedTask> claimed = new ArrayList<>(request.limit());
        try (PreparedStatement statement = connection.prepareStatement(update)) {
            for (Candidate candidate : candidates) {
                if (claimed.size() == request.limit()) {
                    break;
                }
                statement.setString(1, request.owner());
                statement.setLong(2, request.leaseToken());
                statement.setLong(3, request.clockOffsetMicros() + request.leaseMicros());
                statement.setLong(4, request.clockOffsetMicros());
                statement.setLong(5, candidate.task().id());
                statement.setLong(6, candidate.version());
                if (statement.executeUpdate() == 1) {
                    claimed.add(candidate.task());
                }
            }
        }
        return claimed;
    }

    private record Candidate(ClaimedTask task, long version) {}
}
