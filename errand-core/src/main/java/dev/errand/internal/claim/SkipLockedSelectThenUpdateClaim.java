package dev.errand.internal.claim;

import dev.errand.config.ClaimOrder;
import dev.errand.internal.store.Dialect;
import dev.errand.spi.ClaimRequest;
import dev.errand.spi.ClaimStrategy;
import dev.errand.spi.ClaimedTask;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * Two statements in the caller's transaction: {@code SELECT … FOR UPDATE SKIP LOCKED LIMIT n}, then
 * one UPDATE of the locked ids. For databases without UPDATE … RETURNING, such as H2 and MariaDB. On H2 the
 * locking read is itself two statements (see {@link ClaimSql#lockDue}). It is {@link FilteredClaim} with no
 * filter.
 */
final class SkipLockedSelectThenUpdateClaim implements ClaimStrategy {

    private final FilteredClaim claim;

    /** Creates the strategy for a dialect and task table, claiming in {@code order}. */
    SkipLockedSelectThenUpdateClaim(Dialect dialect, String table, ClaimOrder order) {
        this.claim = new FilteredClaim(dialect, table, order);
    }

    @Override
    public List<ClaimedTask> claim(Connection connection, ClaimRequest request) throws SQLException {
        return claim.claim(connection, request, request.limit(), "", List.of());
    }
}
