package dev.errand.internal.claim;

import dev.errand.config.ClaimOrder;
import dev.errand.internal.store.Dialect;
import dev.errand.spi.ClaimRequest;
import dev.errand.spi.ClaimedTask;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code FOR UPDATE SKIP LOCKED} claim, select then update, of the due tasks that a further condition
 * lets through: flow control claims the tasks of unlimited kinds with one ({@code kind NOT IN …}) and those of
 * a limited kind with another ({@code kind = ?}), in the one transaction that also takes the slots. It runs in
 * the caller's transaction and commits nothing.
 */
public final class FilteredClaim {

    private final Dialect dialect;
    private final String table;
    private final ClaimOrder order;

    /**
     * Creates the claim for a dialect and task table.
     *
     * @param dialect the database's dialect
     * @param table the task table
     * @param order the order to claim in
     */
    public FilteredClaim(Dialect dialect, String table, ClaimOrder order) {
        this.dialect = dialect;
        this.table = table;
        this.order = order;
    }

    /**
     * Claims up to {@code limit} due tasks of {@code request}'s queue that {@code filter} lets through, best
     * first, with {@code request}'s owner, token and lease.
     *
     * @param connection a connection in a transaction
     * @param request the claim
     * @param limit the most tasks to claim ({@code request.limit()} is ignored)
     * @param filter a condition on the task row that starts with {@code " AND "}, with text parameters only
     * @param filterValues the values of {@code filter}'s parameters, in order
     * @return the claimed tasks, best first
     * @throws SQLException if the database fails
     */
    public List<ClaimedTask> claim(
            Connection connection, ClaimRequest request, int limit, String filter, List<String> filterValues)
            throws SQLException {
        List<ClaimedTask> tasks = lock(connection, request, limit, filter, filterValues);
        take(connection, request, tasks);
        return tasks;
    }

    /**
     * Locks up to {@code limit} due tasks of {@code request}'s queue that {@code filter} lets through, best first,
     * without taking them: {@link #take} must follow in the same transaction.
     */
    private List<ClaimedTask> lock(
            Connection connection, ClaimRequest request, int limit, String filter, List<String> filterValues)
            throws SQLException {
        return lock(connection, request, limit, new ClaimSql.Shape(request.exclusive(), filter, order), filterValues);
    }

    /**
     * Locks up to {@code limit} due tasks of one limit key of a kind, best first, along the key index, without taking
     * them: {@link #take} must follow in the same transaction.
     *
     * @param connection a connection in a transaction
     * @param request the claim
     * @param limit the most tasks to lock
     * @param kind the kind
     * @param key the limit key
     * @return the locked tasks, best first, as they will be once taken
     * @throws SQLException if the database fails
     */
    public List<ClaimedTask> lockKey(Connection connection, ClaimRequest request, int limit, String kind, String key)
            throws SQLException {
        return lock(
                connection,
                request,
                limit,
                new ClaimSql.Shape(request.exclusive(), " AND kind = ? AND limit_key = ?", order, true),
                List.of(kind, key));
    }

    private List<ClaimedTask> lock(
            Connection connection, ClaimRequest request, int limit, ClaimSql.Shape shape, List<String> filterValues)
            throws SQLException {
        List<ClaimedTask> tasks = new ArrayList<>(Math.max(0, limit));
        if (limit <= 0) {
            return tasks;
        }
        tasks.addAll(ClaimSql.lockDue(connection, dialect, table, shape, request, limit, filterValues));
        return tasks;
    }

    /**
     * Locks due tasks of several limit keys of one kind of {@code request}'s queue, best first within each key, without
     * taking them ({@link #take} must follow): up to {@code wanted}'s count of each key, in its order, and {@code most}
     * in all, so that a key later in the order gets what the earlier ones leave. One statement where the database runs
     * a {@code LATERAL} join (PostgreSQL), one a key elsewhere.
     *
     * @param connection a connection in a transaction
     * @param request the claim
     * @param kind the kind
     * @param wanted the most tasks of each key, in the order to try the keys
     * @param most the most tasks in all
     * @return the locked tasks of each key that has any, in the order tried
     * @throws SQLException if the database fails
     */
    public java.util.Map<String, List<ClaimedTask>> lockPerKey(
            Connection connection, ClaimRequest request, String kind, java.util.Map<String, Integer> wanted, int most)
            throws SQLException {
        java.util.Map<String, List<ClaimedTask>> locked = new java.util.LinkedHashMap<>();
        if (most <= 0 || wanted.isEmpty()) {
            return locked;
        }
        if (!dialect.supportsLateralJoin()) {
            int taken = 0;
            for (java.util.Map.Entry<String, Integer> key : wanted.entrySet()) {
                int want = Math.min(key.getValue(), most - taken);
                if (want <= 0) {
                    break;
                }
                List<ClaimedTask> tasks = lockKey(connection, request, want, kind, key.getKey());
                if (!tasks.isEmpty()) {
                    locked.put(key.getKey(), tasks);
                    taken += tasks.size();
                }
            }
            return locked;
        }
        String sql = ClaimSql.duePerKey(dialect, table, new ClaimSql.Shape(request.exclusive(), "", order));
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            ClaimSql.bindPerKey(statement, request, kind, wanted, most);
            try (java.sql.ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    locked.computeIfAbsent(rows.getString("flow_key"), k -> new ArrayList<>())
                            .add(ClaimSql.read(rows, request.leaseToken(), true));
                }
            }
        }
        return locked;
    }

    /**
     * Takes the leases of tasks locked by {@link #lock} in this transaction, with {@code request}'s owner, token and
     * lease, in one statement.
     *
     * @param connection the connection of the locks' transaction
     * @param request the claim
     * @param tasks the locked tasks
     * @throws SQLException if the database fails, or not every task was updated
     */
    public void take(Connection connection, ClaimRequest request, List<ClaimedTask> tasks) throws SQLException {
        if (tasks.isEmpty()) {
            return;
        }
        long[] ids = tasks.stream().mapToLong(ClaimedTask::id).toArray();
        String update =
                "UPDATE " + table + " " + ClaimSql.takeLease(dialect) + " WHERE " + dialect.idIn("id", ids.length);
        try (PreparedStatement statement = connection.prepareStatement(update)) {
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
    }
}
