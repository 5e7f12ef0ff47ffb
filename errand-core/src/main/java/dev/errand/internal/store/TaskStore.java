package dev.errand.internal.store;

import dev.errand.spi.ClaimedTask;
import dev.errand.spi.DatabaseClock;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;

/**
 * Every write that moves a claimed task on: start, complete, retry, fail, heartbeat, release and
 * rescue. Each write is fenced by the task's lease token, so a worker whose lease was taken back
 * changes nothing. Every method binds the clock offset ({@code offsetMicros}) where it means "now".
 */
public final class TaskStore {

    private static final String CLEAR_LEASE = "lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL";
    /**
     * "The task is running", written so that the planner cannot use the partial rescue index
     * ({@code WHERE state = 'running'}) for it. Statistics gathered while few tasks ran (a fresh
     * backlog is all pending) make that index look like one row, and the planner then preferred it
     * to the primary key for writes by id: every fenced write scanned all running tasks, and with
     * hundreds of thousands of them the batched completion fell behind the claims. {@code IS TRUE}
     * means the same here ({@code state} is NOT NULL) but matches no index predicate, so writes by id
     * use the primary key.
     */
    private static final String IS_RUNNING = "(state = " + States.RUNNING + ") IS TRUE";

    /**
     * The most attempts of one task that are given back as the infrastructure's failures; later ones count
     * against its maximum attempts, so that a task which itself breaks its connection or its worker ends.
     */
    public static final int MAX_INTERRUPTIONS = 20;

    private static final String FENCE = " WHERE id = ? AND lease_token = ? AND " + IS_RUNNING;
    // Stand-ins for id lists, expanded per call because some dialects bind one parameter per id.
    private static final String IDS = "{ids}";
    private static final String TOKENS = "{tokens}";

    private final Dialect dialect;
    private final DatabaseClock clock;
    private final String table;
    private final boolean keepSucceeded;
    private final TaskInserter inserter;
    private final ProgressStore progress;
    private final String startSql;
    private final String startManySql;
    private final String succeedOneSql;
    private final String succeedManySql;
    private final String retrySql;
    private final String retryWithErrorSql;
    private final String failSql;
    private final String cancelSql;
    private final String heartbeatSql;
    private final String releaseSql;
    private final String requeueSql;
    private final String interruptedSql;
    private final String releaseClaimSql;
    private final String expiredSql;

    /**
     * Creates the store.
     *
     * @param dialect the database's dialect
     * @param table the task table's name
     * @param keepSucceeded whether succeeded tasks stay (retention on) instead of being deleted
     * @param inserter the inserts of new tasks, the one of this database
     * @param clock the node's clock, whose offset each statement that means "now" reads
     */
    public TaskStore(Dialect dialect, String table, boolean keepSucceeded, TaskInserter inserter, DatabaseClock clock) {
        this.clock = clock;
        this.dialect = dialect;
        this.inserter = inserter;
        this.table = table;
        this.keepSucceeded = keepSucceeded;
        this.progress = new ProgressStore(dialect, table, clock);
        String now = dialect.timePlusMicros();
        String manyFence = " WHERE " + IDS + " AND " + TOKENS + " AND " + IS_RUNNING;
        this.startSql = "UPDATE " + table + " SET started_at = " + now + FENCE;
        this.startManySql = "UPDATE " + table + " SET started_at = " + now + manyFence;
        String succeeded =
                "UPDATE " + table + " SET state = " + States.SUCCEEDED + ", finished_at = " + now + ", " + CLEAR_LEASE;
        this.succeedOneSql = keepSucceeded ? succeeded + FENCE : "DELETE FROM " + table + FENCE;
        this.succeedManySql = keepSucceeded ? succeeded + manyFence : "DELETE FROM " + table + manyFence;
        String toPending =
                "UPDATE " + table + " SET state = " + States.PENDING + ", run_at = " + now + ", " + CLEAR_LEASE;
        this.retrySql = toPending + FENCE;
        this.retryWithErrorSql = toPending + ", last_error = ?, errors = " + dialect.appendErrorEntry("errors") + FENCE;
        this.failSql = "UPDATE " + table + " SET state = " + States.FAILED + ", finished_at = " + now + ", "
                + CLEAR_LEASE + ", last_error = ?, errors = " + dialect.appendErrorEntry("errors") + FENCE;
        this.cancelSql = "UPDATE " + table + " SET state = " + States.CANCELLED + ", finished_at = " + now + ", "
                + CLEAR_LEASE + FENCE;
        this.heartbeatSql = "UPDATE " + table + " SET lease_expires_at = " + now + " WHERE " + IDS
                + " AND lease_owner = ? AND " + IS_RUNNING;
        this.releaseSql = "UPDATE " + table + " SET state = " + States.PENDING
                + ", attempt = attempt - 1, started_at = NULL, " + CLEAR_LEASE + manyFence;
        this.requeueSql = "UPDATE " + table + " SET state = " + States.PENDING
                + ", attempt = attempt - 1, started_at = NULL, run_at = " + now + ", " + CLEAR_LEASE + FENCE;
        this.releaseClaimSql = "UPDATE " + table + " SET state = " + States.PENDING
                + ", attempt = attempt - 1, started_at = NULL, " + CLEAR_LEASE
                + " WHERE lease_token = ? AND lease_owner = ? AND " + IS_RUNNING;
        this.interruptedSql = "UPDATE " + table + " SET state = " + States.PENDING
                + ", attempt = attempt - 1, interruptions = interruptions + 1, last_error = ?, started_at = NULL,"
                + " run_at = " + now + ", " + CLEAR_LEASE + FENCE + " AND interruptions < " + MAX_INTERRUPTIONS;
        this.expiredSql = "SELECT " + TaskRows.CLAIMED_COLUMNS + ", lease_token, lease_owner FROM " + table
                + " WHERE state = " + States.RUNNING + " AND lease_expires_at < " + now
                + " ORDER BY " + dialect.orderAlongIndex("state", "lease_expires_at")
                + " LIMIT 1 FOR UPDATE SKIP LOCKED";
    }

    /** The task table's name. */
    public String table() {
        return table;
    }

    /**
     * The progress rows of running tasks; each statement below that ends an attempt deletes the rows of the
     * tasks it changed, on its own transaction.
     */
    public ProgressStore progress() {
        return progress;
    }

    /** Deletes the progress of a task whose attempt this transaction ended; passes the statement's answer on. */
    private boolean ended(Connection connection, boolean changed, long taskId) throws SQLException {
        if (changed) {
            progress.clear(connection, taskId);
        }
        return changed;
    }

    /** The inserts of new tasks: one for the node, shared by every enqueuer. */
    public TaskInserter inserter() {
        return inserter;
    }

    /** The dialect the statements are written for. */
    public Dialect dialect() {
        return dialect;
    }

    /**
     * Locks a claimed task's row for a transactional run, checking the lease token.
     *
     * @return false if the lease was taken back (the task must not run)
     */
    public boolean lockForRun(Connection connection, ClaimedTask task) throws SQLException {
        return lockForRun(connection, task.id(), task.leaseToken());
    }

    /**
     * Locks many claimed tasks for their runs on the caller's transaction, as {@link #lockForRun} does one: in one
     * statement, for a group that commits together.
     *
     * @return how many of them were still this node's and are now locked
     */
    public int lockAllForRun(Connection connection, long[] ids, long[] tokens) throws SQLException {
        long offsetMicros = offsetMicros();
        if (dialect.scansLockEveryRowRead()) {
            return eachByKey(connection, startSql, true, ids, tokens, offsetMicros);
        }
        try (PreparedStatement statement = connection.prepareStatement(withIds(startManySql, ids, tokens))) {
            statement.setLong(1, offsetMicros);
            int i = dialect.bindIds(statement, 2, ids);
            dialect.bindIds(statement, i, tokens);
            return statement.executeUpdate();
        }
    }

    private boolean lockForRun(Connection connection, long id, long token) throws SQLException {
        long offsetMicros = offsetMicros();
        try (PreparedStatement statement = connection.prepareStatement(startSql)) {
            statement.setLong(1, offsetMicros);
            statement.setLong(2, id);
            statement.setLong(3, token);
            return statement.executeUpdate() == 1;
        }
    }

    /** Completes one task (deletes it, or marks it succeeded under retention). */
    public boolean succeed(Connection connection, ClaimedTask task) throws SQLException {
        long offsetMicros = offsetMicros();
        try (PreparedStatement statement = connection.prepareStatement(succeedOneSql)) {
            int i = 1;
            if (keepSucceeded) {
                statement.setLong(i++, offsetMicros);
            }
            statement.setLong(i++, task.id());
            statement.setLong(i, task.leaseToken());
            return ended(connection, statement.executeUpdate() == 1, task.id());
        }
    }

    /**
     * Completes one task and writes what {@code rider} adds, in one statement. Only where
     * {@link #returnsCompletedIds()}. The task is named by scalar parameters, not by the arrays of
     * {@link #succeedAllReturningIds}: PostgreSQL's generic plan of {@code id = ANY(?)} assumes ten ids, so it
     * would plan the statement again at every call.
     *
     * @return false if the lease was taken back, in which case nothing was written
     */
    public boolean succeed(Connection connection, ClaimedTask task, CompletionRider rider) throws SQLException {
        long offsetMicros = offsetMicros();
        try (PreparedStatement statement = connection.prepareStatement(rider.wrap(succeedOneSql))) {
            int i = 1;
            if (keepSucceeded) {
                statement.setLong(i++, offsetMicros);
            }
            statement.setLong(i++, task.id());
            statement.setLong(i++, task.leaseToken());
            rider.bind(statement, i);
            try (ResultSet rows = statement.executeQuery()) {
                return ended(connection, rows.next(), task.id());
            }
        }
    }

    /**
     * Completes many tasks in one statement.
     *
     * @return how many rows were completed (fewer if some leases were taken back)
     */
    public int succeedAll(Connection connection, long[] ids, long[] tokens) throws SQLException {
        long offsetMicros = offsetMicros();
        try (PreparedStatement statement = connection.prepareStatement(withIds(succeedManySql, ids, tokens))) {
            int i = 1;
            if (keepSucceeded) {
                statement.setLong(i++, offsetMicros);
            }
            i = dialect.bindIds(statement, i, ids);
            dialect.bindIds(statement, i, tokens);
            int completed = statement.executeUpdate();
            progress.clear(connection, ids);
            return completed;
        }
    }

    /**
     * Completes many tasks on the caller's transaction, as {@link #succeedAll} does, where the caller's transaction
     * may keep the locks of every row a statement reads (see {@link Dialect#scansLockEveryRowRead()}): there one
     * statement per task, by primary key.
     *
     * @return how many it completed
     */
    public int succeedAllByKey(Connection connection, long[] ids, long[] tokens) throws SQLException {
        if (!dialect.scansLockEveryRowRead()) {
            return succeedAll(connection, ids, tokens);
        }
        int completed = eachByKey(connection, succeedOneSql, keepSucceeded, ids, tokens, offsetMicros());
        progress.clear(connection, ids);
        return completed;
    }

    /**
     * Runs a fenced one-row statement ({@code … WHERE id = ? AND lease_token = ?}, after the clock offset when
     * {@code timed}) for each task, one execution each: a JDBC batch may not say how many rows each statement
     * changed, and the caller must know. Returns how many rows they changed.
     */
    private static int eachByKey(
            Connection connection, String sql, boolean timed, long[] ids, long[] tokens, long offsetMicros)
            throws SQLException {
        int changed = 0;
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int k = 0; k < ids.length; k++) {
                int i = 1;
                if (timed) {
                    statement.setLong(i++, offsetMicros);
                }
                statement.setLong(i++, ids[k]);
                statement.setLong(i, tokens[k]);
                changed += statement.executeUpdate();
            }
        }
        return changed;
    }

    /** Whether {@link #succeedAllReturningIds} can say which tasks it completed (PostgreSQL's RETURNING). */
    public boolean returnsCompletedIds() {
        return dialect.updatesReturnRows();
    }

    /**
     * Completes many tasks in one statement and returns the ids it completed (those whose lease was not
     * taken back), so that no statement needs to lock them first. Only where {@link #returnsCompletedIds()}.
     */
    public java.util.Set<Long> succeedAllReturningIds(Connection connection, long[] ids, long[] tokens)
            throws SQLException {
        return succeedAllReturningIds(connection, ids, tokens, null);
    }

    /**
     * Completes many tasks and writes what {@code rider} adds, in one statement, and returns the ids it
     * completed. Only where {@link #returnsCompletedIds()}.
     *
     * @param rider the write that rides in the completion, or {@code null} for none
     */
    public java.util.Set<Long> succeedAllReturningIds(
            Connection connection, long[] ids, long[] tokens, CompletionRider rider) throws SQLException {
        long offsetMicros = offsetMicros();
        java.util.Set<Long> completed = new java.util.HashSet<>();
        String completion = withIds(succeedManySql, ids, tokens);
        try (PreparedStatement statement =
                connection.prepareStatement(rider == null ? completion + " RETURNING id" : rider.wrap(completion))) {
            int i = 1;
            if (keepSucceeded) {
                statement.setLong(i++, offsetMicros);
            }
            i = dialect.bindIds(statement, i, ids);
            i = dialect.bindIds(statement, i, tokens);
            if (rider != null) {
                rider.bind(statement, i);
            }
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    completed.add(rows.getLong(1));
                }
            }
        }
        progress.clear(connection, ids);
        return completed;
    }

    /**
     * Puts a task back to pending, to run after {@code delay}, optionally recording an error.
     *
     * @param error the attempt's error, or {@code null} for a retry the handler asked for
     */
    public boolean retry(Connection connection, ClaimedTask task, Duration delay, AttemptError error)
            throws SQLException {
        long offsetMicros = offsetMicros();
        try (PreparedStatement statement = connection.prepareStatement(error == null ? retrySql : retryWithErrorSql)) {
            int i = 1;
            statement.setLong(i++, Micros.plus(offsetMicros, Micros.of(delay)));
            if (error != null) {
                i = bindError(dialect, statement, i, error, offsetMicros);
            }
            statement.setLong(i++, task.id());
            statement.setLong(i, task.leaseToken());
            return ended(connection, statement.executeUpdate() == 1, task.id());
        }
    }

    /** Marks a task failed for good and records the error. */
    public boolean fail(Connection connection, ClaimedTask task, AttemptError error) throws SQLException {
        long offsetMicros = offsetMicros();
        try (PreparedStatement statement = connection.prepareStatement(failSql)) {
            int i = 1;
            statement.setLong(i++, offsetMicros);
            i = bindError(dialect, statement, i, error, offsetMicros);
            statement.setLong(i++, task.id());
            statement.setLong(i, task.leaseToken());
            return ended(connection, statement.executeUpdate() == 1, task.id());
        }
    }

    /**
     * Marks a running task cancelled, after its handler stopped on a cancel request; fenced like every
     * write of a claimed task.
     *
     * @return false if the lease was lost meanwhile
     */
    public boolean cancel(Connection connection, ClaimedTask task) throws SQLException {
        long offsetMicros = offsetMicros();
        try (PreparedStatement statement = connection.prepareStatement(cancelSql)) {
            statement.setLong(1, offsetMicros);
            statement.setLong(2, task.id());
            statement.setLong(3, task.leaseToken());
            return ended(connection, statement.executeUpdate() == 1, task.id());
        }
    }

    /**
     * Extends the leases of the given tasks that this node still owns, in one statement.
     *
     * @return how many leases were extended
     */
    public int heartbeat(Connection connection, long[] ids, String owner, Duration lease) throws SQLException {
        long offsetMicros = offsetMicros();
        try (PreparedStatement statement = connection.prepareStatement(withIds(heartbeatSql, ids, null))) {
            statement.setLong(1, Micros.plus(offsetMicros, Micros.of(lease)));
            int next = dialect.bindIds(statement, 2, ids);
            statement.setString(next, owner);
            return statement.executeUpdate();
        }
    }

    /**
     * Puts one running task back to pending after {@code delay} without counting its attempt or
     * recording an error: its attempt ended for a reason that says nothing about the task.
     */
    public boolean requeueUncounted(Connection connection, ClaimedTask task, Duration delay) throws SQLException {
        long offsetMicros = offsetMicros();
        try (PreparedStatement statement = connection.prepareStatement(requeueSql)) {
            statement.setLong(1, Micros.plus(offsetMicros, Micros.of(delay)));
            statement.setLong(2, task.id());
            statement.setLong(3, task.leaseToken());
            return ended(connection, statement.executeUpdate() == 1, task.id());
        }
    }

    /**
     * Puts a task whose attempt the infrastructure cut off back to pending without counting the attempt,
     * adds one to its {@code interruptions} and records why in {@code last_error}; fenced by the lease.
     * Returns false, changing nothing, if the fence fails or the task already has {@link #MAX_INTERRUPTIONS}.
     */
    public boolean requeueInterrupted(Connection connection, ClaimedTask task, Duration delay, String error)
            throws SQLException {
        long offsetMicros = offsetMicros();
        try (PreparedStatement statement = connection.prepareStatement(interruptedSql)) {
            statement.setString(1, error);
            statement.setLong(2, Micros.plus(offsetMicros, Micros.of(delay)));
            statement.setLong(3, task.id());
            statement.setLong(4, task.leaseToken());
            return ended(connection, statement.executeUpdate() == 1, task.id());
        }
    }

    /**
     * Returns to pending, without counting their attempt, whatever one claim took: for a claim whose
     * commit may have landed although its connection broke before the answer came back.
     *
     * @return how many rows the claim had taken
     */
    public int releaseClaim(Connection connection, String owner, long token) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(releaseClaimSql)) {
            statement.setLong(1, token);
            statement.setString(2, owner);
            return statement.executeUpdate();
        }
    }

    /** Returns claimed tasks that never started to pending, without counting their attempt. */
    public int release(Connection connection, long[] ids, long[] tokens) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(withIds(releaseSql, ids, tokens))) {
            int next = dialect.bindIds(statement, 1, ids);
            dialect.bindIds(statement, next, tokens);
            return statement.executeUpdate();
        }
    }

    /**
     * Locks one running task whose lease has expired, skipping rows others hold. Rows whose handler
     * transaction is still open stay locked by it and are never picked: a live transactional run is
     * never rescued.
     */
    public Optional<ExpiredLease> lockOneExpired(Connection connection) throws SQLException {
        long offsetMicros = offsetMicros();
        try (PreparedStatement statement = connection.prepareStatement(expiredSql)) {
            statement.setLong(1, offsetMicros);
            try (ResultSet row = statement.executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                ClaimedTask task = TaskRows.claimed(row, row.getLong("lease_token"), 0);
                return Optional.of(new ExpiredLease(task, row.getString("lease_owner")));
            }
        }
    }

    private String withIds(String sql, long[] ids, long[] tokens) {
        String expanded = sql.replace(IDS, dialect.idIn("id", ids.length));
        return tokens == null ? expanded : expanded.replace(TOKENS, dialect.idIn("lease_token", tokens.length));
    }

    /** Binds an attempt's error for {@code last_error = ?, errors = <append>}; returns the next index. */
    static int bindError(Dialect dialect, PreparedStatement statement, int index, AttemptError error, long offsetMicros)
            throws SQLException {
        int i = index;
        statement.setString(i++, error.lastError());
        statement.setString(i++, dialect.errorEntryParam(error.entryJson()));
        statement.setLong(i++, offsetMicros);
        return i;
    }

    /** The clock's offset in microseconds, read for each statement that means "now". */
    private long offsetMicros() {
        return Micros.of(clock.offset());
    }
}
