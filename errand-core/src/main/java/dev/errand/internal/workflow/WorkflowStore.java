package dev.errand.internal.workflow;

import dev.errand.batch.BatchProgress;
import dev.errand.config.TablePrefix;
import dev.errand.internal.store.Dialect;
import dev.errand.internal.store.Micros;
import dev.errand.internal.store.NewTask;
import dev.errand.internal.store.States;
import dev.errand.internal.store.TaskGate;
import dev.errand.spi.ClaimedTask;
import dev.errand.spi.DatabaseClock;
import dev.errand.spi.TraceContext;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The SQL of workflows and batches: the links of a task to its predecessor, its batch and its
 * dependents; the batches' striped counters and callbacks; and the release or cancellation of
 * dependents when a task they wait for finishes. Every statement is set-based over the tasks that
 * finished in one transaction.
 */
public final class WorkflowStore {

    /** How many counter rows a batch has; a transaction adds to one of them. */
    public static final int STRIPES = 16;

    /** The prefix of the condition a dependent waits on: {@code errand:after:<id>}. */
    public static final String AFTER = "errand:after:";

    private static final int CHUNK = 1_000;

    private final Dialect dialect;
    private final DatabaseClock clock;
    private final String tasks;
    private final String conditions;
    private final String batches;
    private final String counters;
    private final String callbacks;
    private final String fired;
    private final String now;
    private final String channel;
    private final WorkflowGraphs graphs;

    /**
     * Creates the statements.
     *
     * @param dialect the database's dialect
     * @param tables the table prefix
     * @param clock the node's clock, whose offset each statement that means "now" reads
     */
    public WorkflowStore(Dialect dialect, TablePrefix tables, DatabaseClock clock) {
        this.clock = clock;
        this.dialect = dialect;
        this.tasks = tables.taskTable();
        this.conditions = tables.conditionTable();
        this.batches = tables.batchTable();
        this.counters = tables.batchCounterTable();
        this.callbacks = tables.batchCallbackTable();
        this.fired = tables.batchFiredTable();
        this.now = dialect.timePlusMicros();
        // The same channel as the enqueuer's wake-ups (Enqueuer.notificationChannel).
        this.channel = tables.value() + "task_ready";
        this.graphs = new WorkflowGraphs(dialect, tables);
    }

    /** The read side of workflows and batches, and the write of a workflow's graph at enqueue. */
    public WorkflowGraphs graphs() {
        return graphs;
    }

    /** The PostgreSQL channel that wake-ups of new and released tasks are sent on. */
    public String channel() {
        return channel;
    }

    /** The condition name of a dependency on task {@code id}. */
    public static String after(long id) {
        return AFTER + id;
    }

    /**
     * A waiting task that depends on a task that just finished.
     *
     * @param id its id
     * @param queue its queue
     * @param runAnyway whether it runs when a predecessor fails or is cancelled
     * @param links its batch and dependents
     */
    public record Dependent(long id, String queue, boolean runAnyway, ClaimedTask.Links links) {}

    // ---- links written at enqueue ----

    /** Sets the predecessor of a continuation. */
    public void setPredecessor(Connection c, long taskId, long predecessorId) throws SQLException {
        try (PreparedStatement statement =
                c.prepareStatement("UPDATE " + tasks + " SET predecessor_id = ? WHERE id = ?")) {
            statement.setLong(1, predecessorId);
            statement.setLong(2, taskId);
            statement.executeUpdate();
        }
    }

    /** Puts new tasks in a batch, a thousand ids per statement. */
    public void setBatch(Connection c, long batchId, long[] ids) throws SQLException {
        for (long[] chunk : chunks(ids)) {
            try (PreparedStatement statement = c.prepareStatement(
                    "UPDATE " + tasks + " SET batch_id = ? WHERE " + dialect.idIn("id", chunk.length))) {
                statement.setLong(1, batchId);
                dialect.bindIds(statement, 2, chunk);
                statement.executeUpdate();
            }
        }
    }

    /** Marks new tasks as ones that others depend on. */
    public void markHasDependents(Connection c, long[] ids) throws SQLException {
        for (long[] chunk : chunks(ids)) {
            try (PreparedStatement statement = c.prepareStatement(
                    "UPDATE " + tasks + " SET has_dependents = TRUE WHERE " + dialect.idIn("id", chunk.length))) {
                dialect.bindIds(statement, 1, chunk);
                statement.executeUpdate();
            }
        }
    }

    /** Sets what a new dependent does when a predecessor fails: run anyway, or be cancelled. */
    public void setDependencyPolicy(Connection c, long[] ids, boolean runAnyway) throws SQLException {
        for (long[] chunk : chunks(ids)) {
            try (PreparedStatement statement = c.prepareStatement(
                    "UPDATE " + tasks + " SET dependency_policy = ? WHERE " + dialect.idIn("id", chunk.length))) {
                statement.setString(1, runAnyway ? "run" : "cancel");
                dialect.bindIds(statement, 2, chunk);
                statement.executeUpdate();
            }
        }
    }

    /**
     * The chain a task is part of, first step first: its predecessors and successors that are still in
     * the task table.
     */
    public List<Long> chain(Connection c, long taskId) throws SQLException {
        List<Long> before = new ArrayList<>();
        Long current = taskId;
        try (PreparedStatement up = c.prepareStatement("SELECT predecessor_id FROM " + tasks + " WHERE id = ?")) {
            while (current != null && before.size() < 100_000) {
                up.setLong(1, current);
                try (ResultSet row = up.executeQuery()) {
                    if (!row.next()) {
                        break;
                    }
                    long previous = row.getLong(1);
                    current = row.wasNull() ? null : previous;
                }
                if (current != null) {
                    before.add(0, current);
                }
            }
        }
        List<Long> chain = new ArrayList<>(before);
        chain.add(taskId);
        try (PreparedStatement down =
                c.prepareStatement("SELECT id FROM " + tasks + " WHERE predecessor_id = ? ORDER BY id LIMIT 1")) {
            long last = taskId;
            while (chain.size() < 200_000) {
                down.setLong(1, last);
                try (ResultSet row = down.executeQuery()) {
                    if (!row.next()) {
                        break;
                    }
                    last = row.getLong(1);
                }
                chain.add(last);
            }
        }
        return chain;
    }

    /** The batch and dependents of a task, if it exists. */
    public Optional<ClaimedTask.Links> links(Connection c, long taskId) throws SQLException {
        try (PreparedStatement query =
                c.prepareStatement("SELECT batch_id, has_dependents FROM " + tasks + " WHERE id = ?")) {
            query.setLong(1, taskId);
            try (ResultSet row = query.executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                long batch = row.getLong(1);
                boolean hasDependents = row.getBoolean(2);
                return Optional.of(
                        batch == 0 && !hasDependents
                                ? ClaimedTask.Links.NONE
                                : new ClaimedTask.Links(batch, hasDependents));
            }
        }
    }

    // ---- batches ----

    /** Creates a batch of {@code total} tasks with its counter stripes; returns its id. */
    public long createBatch(Connection c, long total) throws SQLException {
        long offsetMicros = offsetMicros();
        long id;
        try (PreparedStatement insert = c.prepareStatement(
                "INSERT INTO " + batches + " (total, created_at) VALUES (?, " + now + ")", new String[] {"id"})) {
            insert.setLong(1, total);
            insert.setLong(2, offsetMicros);
            insert.executeUpdate();
            try (ResultSet keys = insert.getGeneratedKeys()) {
                if (!keys.next()) {
                    throw new SQLException("The database returned no id for the new batch");
                }
                id = keys.getLong(1);
            }
        }
        try (PreparedStatement insert =
                c.prepareStatement("INSERT INTO " + counters + " (batch_id, stripe) VALUES (?, ?)")) {
            for (int stripe = 0; stripe < STRIPES; stripe++) {
                insert.setLong(1, id);
                insert.setInt(2, stripe);
                insert.addBatch();
            }
            insert.executeBatch();
        }
        return id;
    }

    /** Sets the number of tasks of a batch, once they are inserted. */
    public void setTotal(Connection c, long batchId, long total) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement("UPDATE " + batches + " SET total = ? WHERE id = ?")) {
            statement.setLong(1, total);
            statement.setLong(2, batchId);
            statement.executeUpdate();
        }
    }

    /** Stores the task a batch enqueues when {@code on} happens. */
    public void insertCallback(Connection c, long batchId, String on, NewTask task) throws SQLException {
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO " + callbacks
                + " (batch_id, on_event, kind, queue, payload, priority, max_attempts, trace_parent, trace_state)"
                + " VALUES (?, ?, ?, ?, " + dialect.jsonParam() + ", ?, ?, ?, ?)")) {
            insert.setLong(1, batchId);
            insert.setString(2, on);
            insert.setString(3, task.kind());
            insert.setString(4, task.queue());
            insert.setString(5, task.payloadJson());
            insert.setInt(6, task.priority());
            insert.setInt(7, task.maxAttempts());
            // The callback joins the trace that created the batch, whichever thread ends the batch.
            insert.setString(8, task.trace().traceparent());
            insert.setString(9, task.trace().tracestate());
            insert.executeUpdate();
        }
    }

    /** Adds finished tasks to one stripe of a batch's counters. */
    public void count(Connection c, long batchId, int stripe, long succeeded, long failed, long cancelled)
            throws SQLException {
        try (PreparedStatement update = c.prepareStatement("UPDATE " + counters
                + " SET succeeded = succeeded + ?, failed = failed + ?, cancelled = cancelled + ?"
                + " WHERE batch_id = ? AND stripe = ?")) {
            update.setLong(1, succeeded);
            update.setLong(2, failed);
            update.setLong(3, cancelled);
            update.setLong(4, batchId);
            update.setInt(5, stripe);
            update.executeUpdate();
        }
    }

    /**
     * Adds finished tasks to one stripe of a batch's counters and reads the batch's progress, this
     * transaction's counts included. On PostgreSQL one statement does both (the read sees the counts
     * committed when it began, plus this one's, which it adds itself); elsewhere two.
     */
    public Optional<BatchProgress> countAndRead(
            Connection c, long batchId, int stripe, long succeeded, long failed, long cancelled) throws SQLException {
        if (!dialect.updatesReturnRows()) {
            count(c, batchId, stripe, succeeded, failed, cancelled);
            return progress(c, batchId);
        }
        try (PreparedStatement query = c.prepareStatement("WITH counted AS (UPDATE " + counters
                + " SET succeeded = succeeded + ?, failed = failed + ?, cancelled = cancelled + ?"
                + " WHERE batch_id = ? AND stripe = ? RETURNING batch_id)"
                + " SELECT b.total, b.cancelled_at, COALESCE(SUM(k.succeeded), 0) + ?, COALESCE(SUM(k.failed), 0) + ?,"
                + " COALESCE(SUM(k.cancelled), 0) + ?, (SELECT count(*) FROM counted)"
                + " FROM " + batches + " b LEFT JOIN " + counters + " k ON k.batch_id = b.id WHERE b.id = ?"
                + " GROUP BY b.total, b.cancelled_at")) {
            query.setLong(1, succeeded);
            query.setLong(2, failed);
            query.setLong(3, cancelled);
            query.setLong(4, batchId);
            query.setInt(5, stripe);
            query.setLong(6, succeeded);
            query.setLong(7, failed);
            query.setLong(8, cancelled);
            query.setLong(9, batchId);
            try (ResultSet row = query.executeQuery()) {
                if (!row.next() || row.getLong(6) != 1) {
                    return Optional.empty();
                }
                return Optional.of(new BatchProgress(
                        batchId,
                        row.getLong(1),
                        row.getLong(3),
                        row.getLong(4),
                        row.getLong(5),
                        dialect.readInstant(row, "cancelled_at")));
            }
        }
    }

    /** A batch's progress: its total and the sums of its stripes. */
    public Optional<BatchProgress> progress(Connection c, long batchId) throws SQLException {
        try (PreparedStatement query = c.prepareStatement("SELECT b.total, b.cancelled_at,"
                + " COALESCE(SUM(k.succeeded), 0), COALESCE(SUM(k.failed), 0), COALESCE(SUM(k.cancelled), 0)"
                + " FROM " + batches + " b LEFT JOIN " + counters + " k ON k.batch_id = b.id WHERE b.id = ?"
                + " GROUP BY b.total, b.cancelled_at")) {
            query.setLong(1, batchId);
            try (ResultSet row = query.executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                return Optional.of(new BatchProgress(
                        batchId,
                        row.getLong(1),
                        row.getLong(3),
                        row.getLong(4),
                        row.getLong(5),
                        dialect.readInstant(row, "cancelled_at")));
            }
        }
    }

    /** The callback a batch enqueues when {@code on} happens, if it has one. */
    public Optional<NewTask> callback(Connection c, long batchId, String on) throws SQLException {
        try (PreparedStatement query = c.prepareStatement("SELECT kind, queue, payload, priority, max_attempts,"
                + " trace_parent, trace_state FROM " + callbacks + " WHERE batch_id = ? AND on_event = ?")) {
            query.setLong(1, batchId);
            query.setString(2, on);
            try (ResultSet row = query.executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                return Optional.of(new NewTask(
                                row.getString(1),
                                row.getString(2),
                                row.getString(3),
                                new NewTask.Placement(row.getInt(4), null, 0, row.getInt(5), null),
                                TaskGate.NONE)
                        .withTrace(TraceContext.of(row.getString(6), row.getString(7))));
            }
        }
    }

    /**
     * Claims the right to fire a batch's callback, once: the row's primary key refuses a second one,
     * also from a concurrent transaction (which waits for this one and then finds the row).
     *
     * @return whether this transaction fires it
     */
    public boolean claimFiring(Connection c, long batchId, String on) throws SQLException {
        long offsetMicros = offsetMicros();
        String columns = " (batch_id, on_event, task_id, fired_at) VALUES (?, ?, 0, " + now + ")";
        String sql = dialect.insertSkippingDuplicates(fired + columns, "");
        try (PreparedStatement insert = c.prepareStatement(sql)) {
            insert.setLong(1, batchId);
            insert.setString(2, on);
            insert.setLong(3, offsetMicros);
            return insert.executeUpdate() == 1;
        } catch (SQLException e) {
            // H2 refuses the duplicate with an error that leaves the transaction usable.
            if (dialect.isUniqueViolation(e)) {
                return false;
            }
            throw e;
        }
    }

    /** Records the task that a fired callback created. */
    public void setFiredTask(Connection c, long batchId, String on, long taskId) throws SQLException {
        try (PreparedStatement update =
                c.prepareStatement("UPDATE " + fired + " SET task_id = ? WHERE batch_id = ? AND on_event = ?")) {
            update.setLong(1, taskId);
            update.setLong(2, batchId);
            update.setString(3, on);
            update.executeUpdate();
        }
    }

    /** The batch callbacks that fired, as {@code on_event} to task id. */
    public java.util.Map<String, Long> firedCallbacks(Connection c, long batchId) throws SQLException {
        java.util.Map<String, Long> result = new java.util.LinkedHashMap<>();
        try (PreparedStatement query = c.prepareStatement(
                "SELECT on_event, task_id FROM " + fired + " WHERE batch_id = ? ORDER BY on_event")) {
            query.setLong(1, batchId);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    result.put(rows.getString(1), rows.getLong(2));
                }
            }
        }
        return result;
    }

    /** Deletes the callback definitions of a finished batch that did not fire. */
    public void deleteUnfiredCallbacks(Connection c, long batchId) throws SQLException {
        try (PreparedStatement delete = c.prepareStatement("DELETE FROM " + callbacks + " WHERE batch_id = ?"
                + " AND NOT EXISTS (SELECT 1 FROM " + fired + " f WHERE f.batch_id = " + callbacks + ".batch_id"
                + " AND f.on_event = " + callbacks + ".on_event)")) {
            delete.setLong(1, batchId);
            delete.executeUpdate();
        }
    }

    /** Batches with a callback that has not fired yet, oldest first: the sweep checks them. */
    public List<Long> batchesWithUnfiredCallbacks(Connection c, int limit) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (PreparedStatement query = c.prepareStatement("SELECT DISTINCT k.batch_id FROM " + callbacks + " k"
                + " WHERE NOT EXISTS (SELECT 1 FROM " + fired + " f WHERE f.batch_id = k.batch_id"
                + " AND f.on_event = k.on_event) ORDER BY k.batch_id LIMIT ?")) {
            query.setInt(1, limit);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getLong(1));
                }
            }
        }
        return ids;
    }

    /**
     * Finished batches created before {@code now - retention} whose callbacks have all fired (or were
     * dropped when the batch finished), oldest first: those whose rows can go.
     */
    public long[] prunableBatches(Connection c, long retentionMicros, int limit) throws SQLException {
        long offsetMicros = offsetMicros();
        List<Long> ids = new ArrayList<>();
        try (PreparedStatement query = c.prepareStatement("SELECT b.id FROM " + batches + " b WHERE b.created_at < "
                + now + " AND b.total <= (SELECT COALESCE(SUM(k.succeeded + k.failed + k.cancelled), 0) FROM "
                + counters + " k WHERE k.batch_id = b.id) AND NOT EXISTS (SELECT 1 FROM " + callbacks
                + " d WHERE d.batch_id = b.id AND NOT EXISTS (SELECT 1 FROM " + fired
                + " f WHERE f.batch_id = d.batch_id AND f.on_event = d.on_event)) ORDER BY b.id LIMIT ?")) {
            query.setLong(1, offsetMicros - retentionMicros);
            query.setInt(2, limit);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getLong(1));
                }
            }
        }
        return ids.stream().mapToLong(Long::longValue).toArray();
    }

    /** Deletes batches' own rows: fired callbacks, callback definitions, counters, the batch. Not their tasks. */
    public int deleteBatches(Connection c, long[] ids) throws SQLException {
        int deleted = 0;
        for (long[] chunk : chunks(ids)) {
            for (String table : List.of(fired, callbacks, counters)) {
                try (PreparedStatement delete = c.prepareStatement(
                        "DELETE FROM " + table + " WHERE " + dialect.idIn("batch_id", chunk.length))) {
                    dialect.bindIds(delete, 1, chunk);
                    delete.executeUpdate();
                }
            }
            try (PreparedStatement delete =
                    c.prepareStatement("DELETE FROM " + batches + " WHERE " + dialect.idIn("id", chunk.length))) {
                dialect.bindIds(delete, 1, chunk);
                deleted += delete.executeUpdate();
            }
        }
        return deleted;
    }

    /** Marks a batch cancelled; returns false if it does not exist or was cancelled already. */
    public boolean markCancelled(Connection c, long batchId) throws SQLException {
        long offsetMicros = offsetMicros();
        try (PreparedStatement update = c.prepareStatement(
                "UPDATE " + batches + " SET cancelled_at = " + now + " WHERE id = ? AND cancelled_at IS NULL")) {
            update.setLong(1, offsetMicros);
            update.setLong(2, batchId);
            return update.executeUpdate() == 1;
        }
    }

    /** Locks a batch's tasks that have not started (pending or waiting), in id order. */
    public List<Dependent> lockUnstarted(Connection c, long batchId) throws SQLException {
        return readDependents(
                c.prepareStatement("SELECT id, queue, dependency_policy, batch_id, has_dependents FROM "
                        + tasks + " WHERE batch_id = ? AND state IN (" + States.PENDING + ", " + States.WAITING + ")"
                        + " ORDER BY id FOR UPDATE"),
                statement -> statement.setLong(1, batchId));
    }

    // ---- finishing ----

    /** Locks the waiting tasks that depend on any of {@code predecessors}, in id order. */
    public List<Dependent> lockDependents(Connection c, long[] predecessors) throws SQLException {
        List<Dependent> all = new ArrayList<>();
        for (long[] chunk : chunks(predecessors)) {
            all.addAll(readDependents(
                    c.prepareStatement("SELECT id, queue, dependency_policy, batch_id, has_dependents FROM " + tasks
                            + " WHERE state = " + States.WAITING + " AND id IN (SELECT task_id FROM " + conditions
                            + " WHERE event IN (" + marks(chunk.length) + ")) ORDER BY id FOR UPDATE"),
                    statement -> bindEvents(statement, 1, chunk)));
        }
        return all;
    }

    /**
     * Deletes the conditions of {@code dependents} on {@code predecessors}, then makes pending those of them
     * that have no open condition left. Run it under the locks of {@link #lockDependents}. Both lists go a
     * thousand ids per statement, so that a task with tens of thousands of dependents stays within every
     * database's limit on parameters (65,535 on MariaDB) and no statement grows with the width of the graph.
     *
     * @return how many it released
     */
    public int releaseFulfilled(Connection c, long[] predecessors, long[] dependents) throws SQLException {
        if (dependents.length == 0) {
            return 0;
        }
        List<long[]> predecessorChunks = chunks(predecessors);
        int released = 0;
        for (long[] chunk : chunks(dependents)) {
            for (long[] after : predecessorChunks) {
                try (PreparedStatement delete = c.prepareStatement("DELETE FROM " + conditions + " WHERE "
                        + dialect.idIn("task_id", chunk.length) + " AND event IN (" + marks(after.length) + ")")) {
                    int next = dialect.bindIds(delete, 1, chunk);
                    bindEvents(delete, next, after);
                    delete.executeUpdate();
                }
            }
            try (PreparedStatement update = c.prepareStatement("UPDATE " + tasks + " SET state = " + States.PENDING
                    + " WHERE state = " + States.WAITING + " AND " + dialect.idIn("id", chunk.length)
                    + " AND NOT EXISTS (SELECT 1 FROM " + conditions + " other WHERE other.task_id = " + tasks
                    + ".id)")) {
                dialect.bindIds(update, 1, chunk);
                released += update.executeUpdate();
            }
        }
        return released;
    }

    /**
     * Cancels waiting tasks, recording why, and deletes all their conditions. Run it under the locks of
     * {@link #lockDependents} or {@link #lockUnstarted}.
     *
     * @return how many it cancelled
     */
    public int cancelUnstarted(Connection c, long[] ids, String reason) throws SQLException {
        long offsetMicros = offsetMicros();
        int cancelled = 0;
        for (long[] chunk : chunks(ids)) {
            try (PreparedStatement update = c.prepareStatement("UPDATE " + tasks + " SET state = "
                    + States.CANCELLED + ", finished_at = " + now + ", last_error = ? WHERE "
                    + dialect.idIn("id", chunk.length) + " AND state IN (" + States.PENDING + ", " + States.WAITING
                    + ")")) {
                update.setLong(1, offsetMicros);
                update.setString(2, reason);
                dialect.bindIds(update, 3, chunk);
                cancelled += update.executeUpdate();
            }
            try (PreparedStatement delete = c.prepareStatement(
                    "DELETE FROM " + conditions + " WHERE " + dialect.idIn("task_id", chunk.length))) {
                dialect.bindIds(delete, 1, chunk);
                delete.executeUpdate();
            }
        }
        return cancelled;
    }

    /**
     * Locks the tasks among {@code ids} that are still running under the given leases: the ones whose
     * completion in this transaction is going to count.
     */
    public List<ClaimedTask> lockRunning(Connection c, Collection<ClaimedTask> claimed) throws SQLException {
        long[] ids = new long[claimed.size()];
        long[] tokens = new long[claimed.size()];
        java.util.Map<Long, ClaimedTask> byId = new java.util.HashMap<>();
        int i = 0;
        for (ClaimedTask task : claimed) {
            ids[i] = task.id();
            tokens[i++] = task.leaseToken();
            byId.put(task.id(), task);
        }
        List<ClaimedTask> live = new ArrayList<>(claimed.size());
        try (PreparedStatement query = c.prepareStatement("SELECT id, lease_token FROM " + tasks + " WHERE "
                + dialect.idIn("id", ids.length) + " AND " + dialect.idIn("lease_token", tokens.length)
                + " AND (state = " + States.RUNNING + ") IS TRUE ORDER BY id FOR UPDATE")) {
            int next = dialect.bindIds(query, 1, ids);
            dialect.bindIds(query, next, tokens);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    ClaimedTask task = byId.get(rows.getLong(1));
                    if (task != null && task.leaseToken() == rows.getLong(2)) {
                        live.add(task);
                    }
                }
            }
        }
        return live;
    }

    private interface Binder {
        void bind(PreparedStatement statement) throws SQLException;
    }

    private static List<Dependent> readDependents(PreparedStatement prepared, Binder binder) throws SQLException {
        List<Dependent> result = new ArrayList<>();
        try (PreparedStatement statement = prepared) {
            binder.bind(statement);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    long batch = rows.getLong("batch_id");
                    boolean hasDependents = rows.getBoolean("has_dependents");
                    result.add(new Dependent(
                            rows.getLong("id"),
                            rows.getString("queue"),
                            "run".equals(rows.getString("dependency_policy")),
                            batch == 0 && !hasDependents
                                    ? ClaimedTask.Links.NONE
                                    : new ClaimedTask.Links(batch, hasDependents)));
                }
            }
        }
        return result;
    }

    private static String marks(int count) {
        StringBuilder marks = new StringBuilder(count * 3);
        for (int i = 0; i < count; i++) {
            marks.append(i == 0 ? "?" : ", ?");
        }
        return marks.toString();
    }

    private static int bindEvents(PreparedStatement statement, int index, long[] predecessors) throws SQLException {
        int i = index;
        for (long id : predecessors) {
            statement.setString(i++, after(id));
        }
        return i;
    }

    private static List<long[]> chunks(long[] ids) {
        List<long[]> chunks = new ArrayList<>((ids.length + CHUNK - 1) / CHUNK);
        for (int from = 0; from < ids.length; from += CHUNK) {
            chunks.add(java.util.Arrays.copyOfRange(ids, from, Math.min(ids.length, from + CHUNK)));
        }
        return chunks;
    }

    /** The clock's offset in microseconds, read for each statement that means "now". */
    private long offsetMicros() {
        return Micros.of(clock.offset());
    }
}
