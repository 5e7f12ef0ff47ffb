package dev.errand.claim;

import dev.errand.store.ClaimedTask;
import dev.errand.store.Dialect;
import java.sql.ResultSet;
import java.sql.SQLException;

/** SQL pieces the claim strategies share. */
final class ClaimSql {

    static final String COLUMNS = "id, kind, queue, payload, attempt, max_attempts";

    private ClaimSql() {}

    /** Due pending tasks of one queue, best first. Parameters: queue, clock offset, limit. */
    static String dueTasks(Dialect dialect, String table, String columns) {
        return "SELECT " + columns + " FROM " + table + " WHERE state = 'pending' AND queue = ? AND run_at <= "
                + dialect.timePlusMicros() + " ORDER BY priority, run_at LIMIT ?";
    }

    /** The SET clause that takes a lease. Parameters: owner, token, lease micros, clock offset. */
    static String takeLease(Dialect dialect) {
        return "SET state = 'running', attempt = attempt + 1, version = version + 1, lease_owner = ?,"
                + " lease_token = ?, lease_expires_at = " + dialect.timePlusMicros() + ", started_at = "
                + dialect.timePlusMicros();
    }

    static ClaimedTask read(ResultSet row, long token, int attemptDelta) throws SQLException {
        return new ClaimedTask(row.getLong("id"), row.getString("kind"), row.getString("queue"),
                row.getString("payload"), row.getInt("attempt") + attemptDelta, row.getInt("max_attempts"), token);
    }
}
