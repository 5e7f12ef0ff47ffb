package dev.errand.internal.process;

import dev.errand.config.TablePrefix;
import dev.errand.internal.store.Dialect;
import dev.errand.internal.store.Micros;
import dev.errand.process.FailedBatch;
import dev.errand.process.ProcessInfo;
import dev.errand.process.ProcessState;
import dev.errand.process.TurnInfo;
import dev.errand.spi.DatabaseClock;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The SQL of distributed processes: the process rows, their turns and their batches. Every state change is one
 * set-based statement in the transaction that causes it; a turn's analysis happens once because it locks the
 * process row and sets the turn's {@code analysed_at} only while it is null.
 */
public final class ProcessStore {

    /** The longest error text stored. */
    public static final int MAX_ERROR = 4_000;

    private final Dialect dialect;
    private final DatabaseClock clock;
    private final String processes;
    private final String turns;
    private final String batches;
    private final String creations;
    private final String tasks;
    private final String errandBatches;
    private final String now;

    /**
     * Creates the statements.
     *
     * @param dialect the database's dialect
     * @param tables the table prefix
     * @param clock the node's clock, whose offset each statement that means "now" reads
     */
    public ProcessStore(Dialect dialect, TablePrefix tables, DatabaseClock clock) {
        this.clock = clock;
        this.dialect = dialect;
        this.processes = tables.processTable();
        this.turns = tables.processTurnTable();
        this.batches = tables.processBatchTable();
        this.creations = tables.processCreationTable();
        this.tasks = tables.taskTable();
        this.errandBatches = tables.batchTable();
        this.now = dialect.timePlusMicros();
    }

    /**
     * A process row.
     *
     * @param id its id
     * @param name its kind's name
     * @param state its state
     * @param turn its current turn
     * @param batchId the Errand batch of its current turn, 0 for none
     * @param queue the queue of its tasks
     * @param nodeGroup its node group, or {@code null}
     * @param retries how often a failed batch runs again
     * @param batches how many batches it created
     */
    public record ProcessRow(
            String id,
            String name,
            ProcessState state,
            int turn,
            long batchId,
            String queue,
            String nodeGroup,
            int retries,
            int batches) {}

    /**
     * A batch to insert.
     *
     * @param number its number within the process
     * @param tries its runs, this one included
     * @param contextJson its items as a JSON array
     * @param taskId the task that runs it
     */
    public record NewBatch(int number, int tries, String contextJson, long taskId) {}

    /**
     * A batch as its task reads it, with its process's state.
     *
     * @param processName the process's kind name
     * @param processState the process's state
     * @param state the batch's state
     * @param tries its runs, this one included
     * @param contextJson its items
     */
    public record BatchToRun(
            String processName, ProcessState processState, String state, int tries, String contextJson) {}

    /**
     * A failed batch to copy into a new turn.
     *
     * @param number its number
     * @param tries its runs so far
     * @param contextJson its items
     */
    public record Retry(int number, int tries, String contextJson) {}

    // ---- processes ----

    /** Whether a process with this id exists. */
    public boolean exists(Connection c, String id) throws SQLException {
        try (PreparedStatement query = c.prepareStatement("SELECT 1 FROM " + processes + " WHERE id = ?")) {
            query.setString(1, id);
            try (ResultSet row = query.executeQuery()) {
                return row.next();
            }
        }
    }

    /** Inserts a process in its row's state (running, or initializing), in turn 1 with no batches yet. */
    public void insertProcess(Connection c, ProcessRow row) throws SQLException {
        long offsetMicros = offsetMicros();
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO " + processes
                + " (id, name, state, turn, queue, node_group, retries, batches, created_at)"
                + " VALUES (?, ?, ?, 1, ?, ?, ?, 0, " + now + ")")) {
            insert.setString(1, row.id());
            insert.setString(2, row.name());
            insert.setString(3, row.state().dbValue());
            insert.setString(4, row.queue());
            insert.setString(5, row.nodeGroup());
            insert.setInt(6, row.retries());
            insert.setLong(7, offsetMicros);
            insert.executeUpdate();
        }
    }

    /** Reads a process row, locking it for the rest of the transaction when {@code lock} is set. */
    public Optional<ProcessRow> process(Connection c, String id, boolean lock) throws SQLException {
        try (PreparedStatement query =
                c.prepareStatement("SELECT id, name, state, turn, batch_id, queue, node_group, retries, batches FROM "
                        + processes + " WHERE id = ?" + (lock ? " FOR UPDATE" : ""))) {
            query.setString(1, id);
            try (ResultSet row = query.executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                return Optional.of(new ProcessRow(
                        row.getString(1),
                        row.getString(2),
                        ProcessState.fromDb(row.getString(3)),
                        row.getInt(4),
                        row.getLong(5),
                        row.getString(6),
                        row.getString(7),
                        row.getInt(8),
                        row.getInt(9)));
            }
        }
    }

    /** Makes {@code turn} the process's current turn, run by Errand batch {@code batchId}; running again. */
    public void advance(Connection c, String id, int turn, long batchId, int createdBatches) throws SQLException {
        try (PreparedStatement update = c.prepareStatement("UPDATE " + processes + " SET turn = ?, batch_id = ?,"
                + " batches = ?, state = 'running', error = NULL, finished_at = NULL WHERE id = ?")) {
            update.setInt(1, turn);
            if (batchId > 0) {
                update.setLong(2, batchId);
            } else {
                update.setNull(2, java.sql.Types.BIGINT);
            }
            update.setInt(3, createdBatches);
            update.setString(4, id);
            update.executeUpdate();
        }
    }

    /**
     * Ends a running or initializing process.
     *
     * @return whether it was running or initializing
     */
    public boolean finish(Connection c, String id, ProcessState state, String error) throws SQLException {
        long offsetMicros = offsetMicros();
        try (PreparedStatement update = c.prepareStatement("UPDATE " + processes + " SET state = ?, error = ?,"
                + " finished_at = " + now + " WHERE id = ? AND state IN ('running', 'initializing')")) {
            update.setString(1, state.dbValue());
            update.setString(2, truncate(error));
            update.setLong(3, offsetMicros);
            update.setString(4, id);
            return update.executeUpdate() == 1;
        }
    }

    /** Deletes a process's batches, turns, creation and row, in that order (no foreign keys bind them). */
    public void delete(Connection c, String id) throws SQLException {
        for (String table : new String[] {batches, turns, creations}) {
            try (PreparedStatement delete = c.prepareStatement("DELETE FROM " + table + " WHERE process_id = ?")) {
                delete.setString(1, id);
                delete.executeUpdate();
            }
        }
        try (PreparedStatement delete = c.prepareStatement("DELETE FROM " + processes + " WHERE id = ?")) {
            delete.setString(1, id);
            delete.executeUpdate();
        }
    }

    /** The ids of up to {@code limit} ended processes that ended before {@code before}, oldest first. */
    public List<String> endedBefore(Connection c, java.time.Instant before, int limit) throws SQLException {
        List<String> ids = new ArrayList<>();
        try (PreparedStatement query = c.prepareStatement("SELECT id FROM " + processes
                + " WHERE state NOT IN ('running', 'initializing') AND finished_at < " + dialect.timestampParam()
                + " ORDER BY finished_at, id")) {
            query.setObject(1, dialect.timestampValue(before));
            query.setMaxRows(limit);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getString(1));
                }
            }
        }
        return ids;
    }

    // ---- creation on the cluster ----

    /**
     * What a creation on the cluster reads, and where it stands.
     *
     * @param sql the query
     * @param parametersJson its parameters (see {@link QueryValues})
     * @param pageKey the pageBy columns, or empty for LIMIT/OFFSET
     * @param pageRows the rows read per page
     * @param batchSize the items per batch
     * @param lastKeyJson the key of the last row read (see {@link QueryValues}), or {@code null} before the first
     *     page
     * @param rowsRead how many rows the pages written so far read
     */
    public record Creation(
            String sql,
            String parametersJson,
            List<String> pageKey,
            int pageRows,
            int batchSize,
            String lastKeyJson,
            long rowsRead) {}

    /** Stores what a creation on the cluster reads. */
    public void insertCreation(Connection c, String id, Creation creation) throws SQLException {
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO " + creations
                + " (process_id, query, parameters, page_by, page_rows, batch_size) VALUES (?, ?, "
                + dialect.jsonParam() + ", ?, ?, ?)")) {
            insert.setString(1, id);
            insert.setString(2, creation.sql());
            insert.setString(3, creation.parametersJson());
            insert.setString(4, creation.pageKey().isEmpty() ? null : String.join(",", creation.pageKey()));
            insert.setInt(5, creation.pageRows());
            insert.setInt(6, creation.batchSize());
            insert.executeUpdate();
        }
    }

    /** Reads a process's creation, locking it for the rest of the transaction. */
    public Optional<Creation> creation(Connection c, String id) throws SQLException {
        try (PreparedStatement query = c.prepareStatement("SELECT query, parameters, page_by, page_rows, batch_size,"
                + " last_key, (SELECT p.rows_read FROM " + processes + " p WHERE p.id = process_id) FROM " + creations
                + " WHERE process_id = ? FOR UPDATE")) {
            query.setString(1, id);
            try (ResultSet row = query.executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                String pageBy = row.getString(3);
                return Optional.of(new Creation(
                        row.getString(1),
                        row.getString(2),
                        pageBy == null ? List.of() : List.of(pageBy.split(",")),
                        row.getInt(4),
                        row.getInt(5),
                        row.getString(6),
                        row.getLong(7)));
            }
        }
    }

    /**
     * Records a page of a creation, in the transaction that wrote its batches: the key of its last row, the rows
     * it read, the process's Errand batch and how many batches it has now.
     */
    public void creationPage(Connection c, String id, String lastKeyJson, int rows, long batchId, int createdBatches)
            throws SQLException {
        try (PreparedStatement update = c.prepareStatement(
                "UPDATE " + creations + " SET last_key = " + dialect.jsonParam() + " WHERE process_id = ?")) {
            update.setString(1, lastKeyJson);
            update.setString(2, id);
            update.executeUpdate();
        }
        try (PreparedStatement update = c.prepareStatement(
                "UPDATE " + processes + " SET rows_read = rows_read + ?, batch_id = ?, batches = ? WHERE id = ?")) {
            update.setLong(1, rows);
            if (batchId > 0) {
                update.setLong(2, batchId);
            } else {
                update.setNull(2, java.sql.Types.BIGINT);
            }
            update.setInt(3, createdBatches);
            update.setString(4, id);
            update.executeUpdate();
        }
    }

    /** Adds to the rows a process's creation read. */
    public void addRowsRead(Connection c, String id, long rows) throws SQLException {
        try (PreparedStatement update =
                c.prepareStatement("UPDATE " + processes + " SET rows_read = rows_read + ? WHERE id = ?")) {
            update.setLong(1, rows);
            update.setString(2, id);
            update.executeUpdate();
        }
    }

    /** Deletes a process's creation once it has ended. */
    public void deleteCreation(Connection c, String id) throws SQLException {
        try (PreparedStatement delete = c.prepareStatement("DELETE FROM " + creations + " WHERE process_id = ?")) {
            delete.setString(1, id);
            delete.executeUpdate();
        }
    }

    // ---- turns ----

    /** Inserts a turn; its primary key refuses a second start of the same turn. */
    public void insertTurn(Connection c, String id, int turn) throws SQLException {
        long offsetMicros = offsetMicros();
        try (PreparedStatement insert = c.prepareStatement(
                "INSERT INTO " + turns + " (process_id, turn, batches, started_at) VALUES (?, ?, 0, " + now + ")")) {
            insert.setString(1, id);
            insert.setInt(2, turn);
            insert.setLong(3, offsetMicros);
            insert.executeUpdate();
        }
    }

    /** Records a turn's Errand batch and size once its batches are written, and the Errand batch's total. */
    public void sizeTurn(Connection c, String id, int turn, long batchId, int size) throws SQLException {
        sizeTurn(c, id, turn, batchId, size, size);
    }

    /**
     * Records a turn's Errand batch and the batches written so far, and sets the Errand batch's total to
     * {@code total}: one more than {@code size} while a creation may still add batches, so that the turn cannot
     * end (and be analysed) before its last batch is written.
     */
    public void sizeTurn(Connection c, String id, int turn, long batchId, int size, long total) throws SQLException {
        try (PreparedStatement update = c.prepareStatement(
                "UPDATE " + turns + " SET batch_id = ?, batches = ? WHERE process_id = ? AND turn = ?")) {
            if (batchId > 0) {
                update.setLong(1, batchId);
            } else {
                update.setNull(1, java.sql.Types.BIGINT);
            }
            update.setInt(2, size);
            update.setString(3, id);
            update.setInt(4, turn);
            update.executeUpdate();
        }
        if (batchId > 0) {
            try (PreparedStatement update =
                    c.prepareStatement("UPDATE " + errandBatches + " SET total = ? WHERE id = ?")) {
                update.setLong(1, total);
                update.setLong(2, batchId);
                update.executeUpdate();
            }
        }
    }

    /**
     * Fails the batches of a turn that are still pending (their task ended without running them: it failed for
     * good, or was cancelled), with the task's last error.
     */
    public void failUnfinished(Connection c, String id, int turn) throws SQLException {
        long offsetMicros = offsetMicros();
        try (PreparedStatement update = c.prepareStatement("UPDATE " + batches + " SET state = 'failed',"
                + " finished_at = " + now + ", error = COALESCE((SELECT t.last_error FROM " + tasks + " t WHERE t.id = "
                + batches + ".task_id), 'Its task ended without running it')"
                + " WHERE process_id = ? AND turn = ? AND state = 'pending'")) {
            update.setLong(1, offsetMicros);
            update.setString(2, id);
            update.setInt(3, turn);
            update.executeUpdate();
        }
    }

    /**
     * Records a turn's counts and the time of its analysis, once.
     *
     * @return false if the turn was analysed already
     */
    public boolean closeTurn(Connection c, String id, int turn, int succeeded, int failed) throws SQLException {
        long offsetMicros = offsetMicros();
        try (PreparedStatement update = c.prepareStatement("UPDATE " + turns + " SET succeeded = ?, failed = ?,"
                + " analysed_at = " + now + " WHERE process_id = ? AND turn = ? AND analysed_at IS NULL")) {
            update.setInt(1, succeeded);
            update.setInt(2, failed);
            update.setLong(3, offsetMicros);
            update.setString(4, id);
            update.setInt(5, turn);
            return update.executeUpdate() == 1;
        }
    }

    /** How many batches of a turn succeeded and failed: {@code [succeeded, failed, pending]}. */
    public int[] countTurn(Connection c, String id, int turn) throws SQLException {
        int[] counts = new int[3];
        try (PreparedStatement query = c.prepareStatement(
                "SELECT state, COUNT(*) FROM " + batches + " WHERE process_id = ? AND turn = ? GROUP BY state")) {
            query.setString(1, id);
            query.setInt(2, turn);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    counts[index(rows.getString(1))] = rows.getInt(2);
                }
            }
        }
        return counts;
    }

    // ---- batches ----

    /** Inserts batches of a turn in one round trip. */
    public void insertBatches(Connection c, String id, int turn, List<NewBatch> rows) throws SQLException {
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO " + batches
                + " (process_id, turn, batch_no, tries, state, context, task_id) VALUES (?, ?, ?, ?, 'pending', "
                + dialect.jsonParam() + ", ?)")) {
            for (NewBatch row : rows) {
                insert.setString(1, id);
                insert.setInt(2, turn);
                insert.setInt(3, row.number());
                insert.setInt(4, row.tries());
                insert.setString(5, row.contextJson());
                insert.setLong(6, row.taskId());
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    /** A batch with its process's state, as the task that runs it reads it. */
    public Optional<BatchToRun> batchToRun(Connection c, String id, int turn, int number) throws SQLException {
        try (PreparedStatement query = c.prepareStatement("SELECT p.name, p.state, b.state, b.tries, b.context FROM "
                + batches + " b JOIN " + processes + " p ON p.id = b.process_id"
                + " WHERE b.process_id = ? AND b.turn = ? AND b.batch_no = ?")) {
            query.setString(1, id);
            query.setInt(2, turn);
            query.setInt(3, number);
            try (ResultSet row = query.executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                return Optional.of(new BatchToRun(
                        row.getString(1),
                        ProcessState.fromDb(row.getString(2)),
                        row.getString(3),
                        row.getInt(4),
                        row.getString(5)));
            }
        }
    }

    /**
     * Ends a pending batch: {@code error} null for success, with the result its handler set (kept only on success,
     * {@code null} for none).
     */
    public void endBatch(Connection c, BatchRef ref, String nodeId, String error, String resultJson)
            throws SQLException {
        long offsetMicros = offsetMicros();
        try (PreparedStatement update = c.prepareStatement("UPDATE " + batches + " SET state = ?, node_id = ?,"
                + " error = ?, finished_at = " + now + ", result = " + dialect.jsonParam()
                + " WHERE process_id = ? AND turn = ? AND batch_no = ? AND state = 'pending'")) {
            update.setString(1, error == null ? "succeeded" : "failed");
            update.setString(2, nodeId);
            update.setString(3, truncate(error));
            update.setLong(4, offsetMicros);
            update.setString(5, error == null ? resultJson : null);
            update.setString(6, ref.process());
            update.setInt(7, ref.turn());
            update.setInt(8, ref.batch());
            update.executeUpdate();
        }
    }

    /** The results of a turn's succeeded batches that set one, by batch number. */
    public java.util.SortedMap<Integer, String> batchResults(Connection c, String id, int turn) throws SQLException {
        java.util.SortedMap<Integer, String> results = new java.util.TreeMap<>();
        try (PreparedStatement query = c.prepareStatement("SELECT batch_no, result FROM " + batches
                + " WHERE process_id = ? AND turn = ? AND state = 'succeeded' AND result IS NOT NULL")) {
            query.setString(1, id);
            query.setInt(2, turn);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    results.put(rows.getInt(1), rows.getString(2));
                }
            }
        }
        return results;
    }

    /**
     * The failed batches of a process, newest turn first, then by number.
     *
     * @param turn only this turn, or 0 for all
     * @param limit the most rows
     */
    public List<FailedBatch> failedBatches(Connection c, String id, int turn, int limit) throws SQLException {
        try (PreparedStatement query = c.prepareStatement("SELECT turn, batch_no, tries, node_id, error FROM " + batches
                + " WHERE process_id = ? AND state = 'failed'" + (turn > 0 ? " AND turn = ?" : "")
                + " ORDER BY turn DESC, batch_no LIMIT ?")) {
            int i = 1;
            query.setString(i++, id);
            if (turn > 0) {
                query.setInt(i++, turn);
            }
            query.setInt(i, limit);
            return readFailed(query);
        }
    }

    /** The first failed batch of a turn that has run more than {@code 1 + retries} times allow, if any. */
    public Optional<FailedBatch> exhausted(Connection c, String id, int turn, int retries) throws SQLException {
        try (PreparedStatement query = c.prepareStatement("SELECT turn, batch_no, tries, node_id, error FROM " + batches
                + " WHERE process_id = ? AND turn = ? AND state = 'failed' AND tries > ? ORDER BY batch_no LIMIT 1")) {
            query.setString(1, id);
            query.setInt(2, turn);
            query.setInt(3, retries);
            return readFailed(query).stream().findFirst();
        }
    }

    private static List<FailedBatch> readFailed(PreparedStatement query) throws SQLException {
        List<FailedBatch> failed = new ArrayList<>();
        try (ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                failed.add(new FailedBatch(
                        rows.getInt(1), rows.getInt(2), rows.getInt(3), rows.getString(4), rows.getString(5)));
            }
        }
        return failed;
    }

    /** The next failed batches of a turn after batch number {@code after}, with their items, by number. */
    public List<Retry> failedAfter(Connection c, String id, int turn, int after, int limit) throws SQLException {
        List<Retry> retries = new ArrayList<>();
        try (PreparedStatement query = c.prepareStatement(
                "SELECT batch_no, tries, context FROM " + batches
                        + " WHERE process_id = ? AND turn = ? AND state = 'failed' AND batch_no > ? ORDER BY batch_no LIMIT ?")) {
            query.setString(1, id);
            query.setInt(2, turn);
            query.setInt(3, after);
            query.setInt(4, limit);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    retries.add(new Retry(rows.getInt(1), rows.getInt(2), rows.getString(3)));
                }
            }
        }
        return retries;
    }

    // ---- reading ----

    /** A process with its turns and their counts (the live counts of a turn not yet analysed). */
    public Optional<ProcessInfo> info(Connection c, String id) throws SQLException {
        List<ProcessInfo> found = infos(c, "WHERE id = ?", List.of(id), 1);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
    }

    /** The newest processes, optionally in one state. */
    public List<ProcessInfo> list(Connection c, ProcessState state, int limit) throws SQLException {
        return state == null
                ? infos(c, "", List.of(), limit)
                : infos(c, "WHERE state = ?", List.of(state.dbValue()), limit);
    }

    private List<ProcessInfo> infos(Connection c, String where, List<String> parameters, int limit)
            throws SQLException {
        List<ProcessInfo> result = new ArrayList<>();
        try (PreparedStatement query = c.prepareStatement("SELECT id, name, state, turn, node_group, retries, batches,"
                + " rows_read, error, created_at, finished_at FROM " + processes + " " + where
                + " ORDER BY created_at DESC, id LIMIT ?")) {
            int i = 1;
            for (String parameter : parameters) {
                query.setString(i++, parameter);
            }
            query.setInt(i, limit);
            try (ResultSet row = query.executeQuery()) {
                while (row.next()) {
                    result.add(new ProcessInfo(
                            row.getString("id"),
                            row.getString("name"),
                            ProcessState.fromDb(row.getString("state")),
                            row.getInt("turn"),
                            row.getString("node_group"),
                            row.getInt("retries"),
                            row.getInt("batches"),
                            row.getLong("rows_read"),
                            row.getString("error"),
                            dialect.readInstant(row, "created_at"),
                            dialect.readInstant(row, "finished_at"),
                            List.of()));
                }
            }
        }
        List<ProcessInfo> withTurns = new ArrayList<>(result.size());
        for (ProcessInfo info : result) {
            withTurns.add(new ProcessInfo(
                    info.id(),
                    info.name(),
                    info.state(),
                    info.turn(),
                    info.nodeGroup(),
                    info.retries(),
                    info.batches(),
                    info.rowsRead(),
                    info.error(),
                    info.createdAt(),
                    info.finishedAt(),
                    turns(c, info.id())));
        }
        return withTurns;
    }

    private List<TurnInfo> turns(Connection c, String id) throws SQLException {
        Map<Integer, TurnInfo> byTurn = new LinkedHashMap<>();
        try (PreparedStatement query = c.prepareStatement("SELECT turn, batches, succeeded, failed, started_at,"
                + " analysed_at FROM " + turns + " WHERE process_id = ? ORDER BY turn")) {
            query.setString(1, id);
            try (ResultSet row = query.executeQuery()) {
                while (row.next()) {
                    byTurn.put(
                            row.getInt(1),
                            new TurnInfo(
                                    row.getInt(1),
                                    row.getInt(2),
                                    row.getInt(3),
                                    row.getInt(4),
                                    dialect.readInstant(row, "started_at"),
                                    dialect.readInstant(row, "analysed_at")));
                }
            }
        }
        List<TurnInfo> result = new ArrayList<>(byTurn.size());
        for (TurnInfo turn : byTurn.values()) {
            if (turn.analysedAt() != null) {
                result.add(turn);
            } else {
                int[] counts = countTurn(c, id, turn.turn());
                result.add(new TurnInfo(turn.turn(), turn.batches(), counts[0], counts[1], turn.startedAt(), null));
            }
        }
        return result;
    }

    private static int index(String state) {
        return switch (state) {
            case "succeeded" -> 0;
            case "failed" -> 1;
            default -> 2;
        };
    }

    /**
     * An error as stored: at most {@link #MAX_ERROR} characters, and NUL replaced by U+FFFD (PostgreSQL cannot
     * store it, and a failure reason is the caller's text).
     */
    private static String truncate(String error) {
        if (error == null) {
            return null;
        }
        String cut = error.length() <= MAX_ERROR ? error : error.substring(0, MAX_ERROR);
        return cut.replace('\u0000', '\uFFFD');
    }

    /** The clock's offset in microseconds, read for each statement that means "now". */
    private long offsetMicros() {
        return Micros.of(clock.offset());
    }
}
