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
import java.util.ArrayList;
import java.util.List;

/**
 * Two statements in the caller's transaction: {@code SELECT … FOR UPDATE SKIP LOCKED LIMIT n}, then
 * one UPDATE of the locked ids. For databases without UPDATE … RETURNING, such as H2 and MariaDB.
 */
final class SkipLockedSelectThenUpdateClaim implements ClaimStrategy {

    private final Dialect dialect;
    private final String select;
    private final String selectExclusive;
    private final String update;

    /** Creates the strategy for a dialect and task table, claiming in {@code order}. */
    SkipLockedSelectThenUpdateClaim(Dialect dialect, String table, ClaimOrder order) {
        this.dialect = dialect;
        this.select = ClaimSql.dueTasks(dialect, table, ClaimSql.COLUMNS, true, order);
        this.selectExclusive = ClaimSql.dueTasks(dialect, table, ClaimSql.COLUMNS, true, true, order);
        this.update = "UPDATE " + table + " " + ClaimSql.takeLease(dialect) + " WHERE ";
    }

    @Override
    public List<ClaimedTask> claim(Connection connection, ClaimRequest request) throws SQLException {
        List<ClaimedTask> tasks = new ArrayList<>(request.limit());
        try (PreparedStatement statement =
                connection.prepareStatement(request.exclusive() ? selectExclusive : select)) {
            ClaimSql.bindDue(dialect, statement, 1, request, request.limit());
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    tasks.add(ClaimSql.read(rows, request.leaseToken(), true));
                }
            }
        }
        if (tasks.isEmpty()) {
            return tasks;
        }
        long[] ids = new long[tasks.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = tasks.get(i).id();
        }
        try (PreparedStatement statement = connection.prepareStatement(update + dialect.idIn("id", ids.length))) {
            statement.setString(1, request.owner());
            statement.setLong(2, request.leaseToken());
            statement.setLong(3, request.clockOffsetMicros() + request.leaseMicros());
            statement.setLong(4, request.clockOffsetMicros());
            dialect.bindIds(statement, 5, ids);
            int updated = statement.executeUpdate();
            if (updated != ids.length) {
                throw new SQLException("Claimed " + ids.length + " locked tasks but updated " + updated);
            }
        }
        return tasks;
    }
}
