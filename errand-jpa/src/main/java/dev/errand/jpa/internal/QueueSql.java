package dev.errand.jpa.internal;

import dev.errand.jpa.internal.QueueTable.StateColumns;
import dev.errand.jpa.state.QueueStatus;

/**
 * The SQL of one entity queue on its entity's table. Every "now" is the database's clock plus a bound
 * offset in microseconds ({@code :offset}, and {@code :lease} or {@code :delay} where a duration is added),
 * so that a test clock can move and no JVM clock is ever compared. Statements that change the state also
 * raise the entity's numeric {@code @Version}, so that an application holding a stale copy of the entity
 * cannot write an old state back.
 */
final class QueueSql {

    static final String ID = "errand_id";
    static final String ATTEMPTS = "errand_attempts";
    static final String OWNER = "errand_owner";
    static final String TOKEN = "errand_token";
    static final String STATUS = "errand_status";
    static final String COUNT = "errand_count";

    final String claimDueLocked;
    final String claimUnscheduledLocked;
    final String claimIds;
    final String claimDueReturning;
    final String claimUnscheduledReturning;
    final String lockForProcessing;
    final String complete;
    final String retry;
    final String fail;
    final String lockExpired;
    final String release;
    final String resetFailed;
    final String countByStatus;

    QueueSql(QueueTable table, SqlDialect dialect) {
        StateColumns c = table.columns();
        String t = table.table();
        String id = table.id();
        String bump = table.version() == null ? "" : ", " + table.version() + " = " + table.version() + " + 1";
        String now = dialect.nowPlus("offset");
        String pending = c.status() + " = '" + QueueStatus.PENDING + "'";
        String inProgress = c.status() + " = '" + QueueStatus.IN_PROGRESS + "'";
        String dropLease = c.leaseOwner() + " = NULL, " + c.leaseToken() + " = NULL, " + c.leaseExpiresAt() + " = NULL";
        String fenced = " WHERE " + id + " = :id AND " + c.leaseToken() + " = :token";

        String take = "UPDATE " + t + " SET " + c.status() + " = '" + QueueStatus.IN_PROGRESS + "', " + c.attempts()
                + " = " + c.attempts() + " + 1, " + c.lastAttemptAt() + " = " + now + ", " + c.leaseOwner()
                + " = :owner, " + c.leaseToken() + " = :token, " + c.leaseExpiresAt() + " = "
                + dialect.nowPlus("lease") + bump;
        // Items due by their time, oldest first; then items enqueued "as soon as possible" (NULL), in index order.
        String due = " FROM " + t + " WHERE " + pending + " AND " + c.nextAttemptAt() + " <= " + now + " ORDER BY "
                + c.nextAttemptAt() + " LIMIT :limit FOR UPDATE SKIP LOCKED";
        String unscheduled = " FROM " + t + " WHERE " + pending + " AND " + c.nextAttemptAt()
                + " IS NULL LIMIT :limit FOR UPDATE SKIP LOCKED";
        String returning = " RETURNING " + id + " AS " + ID + ", " + c.attempts() + " AS " + ATTEMPTS;
        String selected = "SELECT " + id + " AS " + ID + ", " + c.attempts() + " AS " + ATTEMPTS;
        this.claimDueLocked = selected + due;
        this.claimUnscheduledLocked = selected + unscheduled;
        this.claimIds = take + " WHERE " + id + " IN (:ids)";
        // ARRAY(…), not IN (…): the locking subquery answers differently each time it runs, and IN lets a nested-loop
        // plan run it once per row of the table, claiming far more than the limit (ClaimLimitUnderAnyPlanTest in
        // errand-core). ARRAY(…) runs once per execution.
        this.claimDueReturning = take + " WHERE " + id + " = ANY(ARRAY(SELECT " + id + due + "))" + returning;
        this.claimUnscheduledReturning =
                take + " WHERE " + id + " = ANY(ARRAY(SELECT " + id + unscheduled + "))" + returning;

        this.lockForProcessing = "SELECT " + c.attempts() + " AS " + ATTEMPTS + " FROM " + t + fenced + " AND "
                + inProgress + " FOR UPDATE";
        this.complete = "UPDATE " + t + " SET " + c.status() + " = '" + QueueStatus.DONE + "', " + c.nextAttemptAt()
                + " = NULL, " + dropLease + bump + fenced;
        this.retry = "UPDATE " + t + " SET " + c.status() + " = '" + QueueStatus.PENDING + "', " + c.nextAttemptAt()
                + " = " + dialect.nowPlus("delay") + ", " + c.lastError() + " = :error, " + dropLease + bump + fenced;
        this.fail = "UPDATE " + t + " SET " + c.status() + " = '" + QueueStatus.FAILED + "', " + c.nextAttemptAt()
                + " = NULL, " + c.lastError() + " = :error, " + dropLease + bump + fenced;
        this.lockExpired = "SELECT " + id + " AS " + ID + ", " + c.attempts() + " AS " + ATTEMPTS + ", "
                + c.leaseOwner() + " AS " + OWNER + ", " + c.leaseToken() + " AS " + TOKEN + " FROM " + t + " WHERE "
                + inProgress + " AND " + c.leaseExpiresAt() + " < " + now + " ORDER BY " + c.leaseExpiresAt()
                + " LIMIT 1 FOR UPDATE SKIP LOCKED";
        this.release = "UPDATE " + t + " SET " + c.status() + " = '" + QueueStatus.PENDING + "', " + c.attempts()
                + " = " + c.attempts() + " - 1, " + dropLease + bump + " WHERE " + c.leaseToken() + " = :token AND "
                + inProgress + " AND " + id + " IN (:ids)";
        this.resetFailed = "UPDATE " + t + " SET " + c.status() + " = '" + QueueStatus.PENDING + "', "
                + c.nextAttemptAt() + " = " + now + ", " + c.attempts() + " = 0, " + dropLease + bump + " WHERE "
                + c.status() + " = '" + QueueStatus.FAILED + "'";
        this.countByStatus = "SELECT " + c.status() + " AS " + STATUS + ", COUNT(*) AS " + COUNT + " FROM " + t
                + " WHERE " + c.status() + " IS NOT NULL GROUP BY " + c.status();
    }
}
