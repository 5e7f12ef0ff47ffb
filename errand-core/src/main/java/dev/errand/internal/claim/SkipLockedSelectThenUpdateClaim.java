package dev.errand.internal.claim;

import dev.errand.config.ClaimOrder;
import dev.errand.internal.store.Dialect;
import dev.errand.spi.ClaimRequest;
import dev.errand.spi.ClaimStrategy;
import dev.errand.spi.ClaimedTask;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * Two statements in the caller's transaction: {@code SELECT … FOR UPDATE SKIP LOCKED LIMIT n}, then
 * one UPDATE of the locked ids. For databases without UPDATE … RETURNING, such as H2 and MariaDB. On H2 the
 * locking read is itself two statements (see {@link ClaimSql#lockDue}).
 */
final class SkipLockedSelectThenUpdateClaim implements ClaimStrategy {

    private final Dialect dialect;
    private final String table;
    private final ClaimOrder order;
    private final String update;

    /** Creates the strategy for a dialect and task table, claiming in {@code order}. */
    SkipLockedSelectThenUpdateClaim(Dialect dialect, String table, ClaimOrder order) {
        this.dialect = dialect;
        this.table = table;
        this.order = order;
        this.update = "UPDATE " + table + " " + ClaimSql.takeLease(dialect) + " WHERE ";
    }

    @Override
    public List<ClaimedTask> claim(Connection connection, ClaimRequest request) throws SQLException {
        List<ClaimedTask> tasks = ClaimSql.lockDue(
                connection,
                dialect,
                table,
                new ClaimSql.Shape(request.exclusive(), "", order),
                request,
                request.limit(),
                List.of());
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
