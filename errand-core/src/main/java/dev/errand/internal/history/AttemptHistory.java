package dev.errand.internal.history;

import dev.errand.config.ErrandSettings;
import dev.errand.config.TablePrefix;
import dev.errand.history.Attempt;
import dev.errand.history.AttemptOutcome;
import dev.errand.history.AttemptQuery;
import dev.errand.internal.store.CompletionRider;
import dev.errand.internal.store.Dialect;
import dev.errand.internal.store.Jdbc;
import dev.errand.internal.store.Micros;
import dev.errand.internal.store.Transactions;
import dev.errand.spi.DatabaseClock;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The SQL of the attempt history: rows written on the connection of the transaction that records the
 * attempt's outcome, reads for the admin API, and pruning in batches. When history is off, writes do
 * nothing.
 */
public final class AttemptHistory {

    /** The most rows one prune statement deletes, so that no statement holds many locks for long. */
    public static final int PRUNE_BATCH = 1_000;

    private static final String COLUMNS = "id, task_id, kind, queue, attempt, node, started_at, finished_at,"
            + " duration_ms, outcome, error_type, error_message, stack_trace, logs";

    private final Dialect dialect;
    private final DatabaseClock clock;
    private final TablePrefix tables;
    private final String table;
    private final String node;
    private final boolean enabled;
    private final boolean capturesLogs;
    private final String insertSql;

    /**
     * Creates the statements.
     *
     * @param dialect the database's dialect
     * @param settings the node's settings: the table prefix, this node's id (recorded on each row it writes),
     *     whether attempts are recorded, whether they keep their processing logs (only when they are recorded),
     *     and the clock
     */
    public AttemptHistory(Dialect dialect, ErrandSettings settings) {
        this.clock = settings.clock();
        this.dialect = dialect;
        this.table = settings.tablePrefix().attemptTable();
        this.node = settings.nodeId();
        this.enabled = settings.historyEnabled();
        this.capturesLogs = enabled && settings.processingLogsEnabled();
        this.tables = settings.tablePrefix();
        String now = dialect.timePlusMicros();
        this.insertSql = "INSERT INTO " + table + " (task_id, kind, queue, attempt, node, started_at, finished_at,"
                + " duration_ms, outcome, error_type, error_message, stack_trace, logs) VALUES (?, ?, ?, ?, ?, " + now
                + ", " + now + ", ?, ?, ?, ?, ?, ?)";
    }

    /** The table prefix of the history's table. */
    TablePrefix tables() {
        return tables;
    }

    /** Whether attempts are recorded. */
    public boolean enabled() {
        return enabled;
    }

    /** Whether attempts keep their processing logs. */
    public boolean capturesLogs() {
        return capturesLogs;
    }

    /** Records one attempt on {@code c}, in its transaction. */
    public void record(Connection c, AttemptRow row) throws SQLException {
        if (!enabled) {
            return;
        }
        try (PreparedStatement insert = c.prepareStatement(insertSql)) {
            bind(insert, row);
            insert.executeUpdate();
        }
    }

    /** Records many attempts on {@code c} in one batch, in its transaction. */
    public void recordAll(Connection c, List<AttemptRow> rows) throws SQLException {
        if (!enabled || rows.isEmpty()) {
            return;
        }
        try (PreparedStatement insert = c.prepareStatement(insertSql)) {
            for (AttemptRow row : rows) {
                bind(insert, row);
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    /**
     * Whether successes are recorded in the statement that completes their tasks ({@link #successRider}):
     * with history on, where the database returns rows from a {@code DELETE} or {@code UPDATE}.
     */
    public boolean ridesOnCompletion() {
        return enabled && dialect.updatesReturnRows();
    }

    /**
     * The history rows of succeeded attempts as a write that rides in their tasks' completion, so that a
     * row is written for each task the completion ended (and none for a task whose lease was taken back) in
     * the same statement: one round trip and one executor for the batch, where a JDBC batch of inserts costs
     * one of each per row. Only where {@link #ridesOnCompletion()}.
     *
     * @param rows the successes, one per task of the completion
     */
    public CompletionRider successRider(List<AttemptRow> rows) {
        return rows.size() == 1 ? new OneSuccess(rows.get(0)) : new Successes(rows);
    }

    /** The start of a success rider's statement, up to the rows it inserts from. */
    private String successInsert(String completion) {
        return "WITH done AS (" + completion + " RETURNING id, kind, queue, attempt),"
                + " recorded AS (INSERT INTO " + table + " (task_id, kind, queue, attempt, node, started_at,"
                + " finished_at, duration_ms, outcome, logs)"
                + " SELECT d.id, d.kind, d.queue, d.attempt, ?,"
                + " statement_timestamp() + (CAST(? AS BIGINT) - r.micros) * INTERVAL '1 microsecond', "
                + dialect.timePlusMicros() + ", r.micros / 1000, ?, r.logs FROM done d";
    }

    /** Binds the parameters every success rider has first: the node, the clock offset twice, the outcome. */
    private int bindSuccess(PreparedStatement statement, int index) throws SQLException {
        long offsetMicros = offsetMicros();
        int i = index;
        statement.setString(i++, node);
        statement.setLong(i++, offsetMicros);
        statement.setLong(i++, offsetMicros);
        statement.setString(i++, AttemptOutcome.SUCCEEDED.dbValue());
        return i;
    }

    /**
     * One task's success, with scalar parameters: a one-element array would make PostgreSQL plan the
     * statement again at each call (its generic plan assumes ten elements and looks dearer than a custom one).
     */
    private final class OneSuccess implements CompletionRider {
        private final AttemptRow row;

        OneSuccess(AttemptRow row) {
            this.row = row;
        }

        @Override
        public String wrap(String completion) {
            return successInsert(completion)
                    + " CROSS JOIN (SELECT CAST(? AS BIGINT) AS micros, CAST(? AS TEXT) AS logs) r) SELECT id FROM done";
        }

        @Override
        public void bind(PreparedStatement statement, int index) throws SQLException {
            int i = bindSuccess(statement, index);
            Long micros = row.durationMicros();
            if (micros == null) {
                statement.setNull(i++, Types.BIGINT);
            } else {
                statement.setLong(i++, micros);
            }
            statement.setString(i, row.logs());
        }
    }

    /** Many tasks' successes, joined to the completed rows by id through arrays. */
    private final class Successes implements CompletionRider {
        private final List<AttemptRow> rows;

        Successes(List<AttemptRow> rows) {
            this.rows = rows;
        }

        @Override
        public String wrap(String completion) {
            return successInsert(completion)
                    + " JOIN unnest(CAST(? AS bigint[]), CAST(? AS bigint[]), CAST(? AS text[]))"
                    + " AS r(task_id, micros, logs) ON r.task_id = d.id) SELECT id FROM done";
        }

        @Override
        public void bind(PreparedStatement statement, int index) throws SQLException {
            Long[] ids = new Long[rows.size()];
            Long[] micros = new Long[rows.size()];
            String[] logs = new String[rows.size()];
            for (int r = 0; r < ids.length; r++) {
                AttemptRow row = rows.get(r);
                ids[r] = row.task().id();
                micros[r] = row.durationMicros();
                logs[r] = row.logs();
            }
            Connection c = statement.getConnection();
            int i = bindSuccess(statement, index);
            statement.setArray(i++, c.createArrayOf("BIGINT", ids));
            statement.setArray(i++, c.createArrayOf("BIGINT", micros));
            statement.setArray(i, c.createArrayOf("TEXT", logs));
        }
    }

    private void bind(PreparedStatement insert, AttemptRow row) throws SQLException {
        long offsetMicros = offsetMicros();
        int i = 1;
        insert.setLong(i++, row.task().id());
        insert.setString(i++, row.task().kind());
        insert.setString(i++, row.task().queue());
        insert.setInt(i++, row.task().attempt());
        insert.setString(i++, node);
        if (row.durationMicros() == null) {
            insert.setNull(i++, Types.BIGINT);
        } else {
            insert.setLong(i++, Micros.plus(offsetMicros, -row.durationMicros()));
        }
        insert.setLong(i++, offsetMicros);
        if (row.durationMicros() == null) {
            insert.setNull(i++, Types.BIGINT);
        } else {
            insert.setLong(i++, row.durationMicros() / 1_000);
        }
        insert.setString(i++, row.outcome().dbValue());
        Attempt.AttemptError error = row.error();
        insert.setString(i++, error == null ? null : error.type());
        insert.setString(i++, error == null ? null : error.message());
        insert.setString(i++, error == null ? null : error.stackTrace());
        insert.setString(i, row.logs());
    }

    /** The attempts of one task, first to last. */
    public List<Attempt> attempts(Connection c, long taskId) throws SQLException {
        try (PreparedStatement select = c.prepareStatement(
                "SELECT " + COLUMNS + " FROM " + table + " WHERE task_id = ? ORDER BY attempt, id")) {
            select.setLong(1, taskId);
            return read(select);
        }
    }

    /** One page of the attempts that match {@code query}, newest first. */
    public List<Attempt> search(Connection c, AttemptQuery query) throws SQLException {
        Filter filter = new Filter(query);
        try (PreparedStatement select = c.prepareStatement(searchSql(filter))) {
            int i = filter.bind(select);
            select.setInt(i++, query.limit());
            select.setInt(i, query.offset());
            return read(select);
        }
    }

    /** The statement of {@link #search}, with its parameters as {@code ?}: the filter's, then the limit and offset. */
    String searchSql(AttemptQuery query) {
        return searchSql(new Filter(query));
    }

    private String searchSql(Filter filter) {
        return "SELECT " + COLUMNS + " FROM " + table + filter.where
                + " ORDER BY finished_at DESC, id DESC LIMIT ? OFFSET ?";
    }

    /**
     * How many attempts match {@code query}; with {@link AttemptQuery#countUpTo()} set, at most {@code bound + 1},
     * where the bound is the larger of it and the end of the page.
     */
    public long count(Connection c, AttemptQuery query) throws SQLException {
        Filter filter = new Filter(query);
        long bound = countBound(query);
        String sql = bound == 0
                ? "SELECT COUNT(*) FROM " + table + filter.where
                : "SELECT COUNT(*) FROM (SELECT 1 AS one FROM " + table + filter.where + " LIMIT ?) bounded";
        try (PreparedStatement select = c.prepareStatement(sql)) {
            int next = filter.bind(select);
            if (bound > 0) {
                select.setLong(next, bound + 1);
            }
            try (ResultSet row = select.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    /** The bound of a bounded count: 0 for an exact one. */
    public static long countBound(AttemptQuery query) {
        return query.countUpTo() == 0 ? 0 : Math.max(query.countUpTo(), (long) query.offset() + query.limit());
    }

    /**
     * Deletes every attempt that finished more than {@code ageMicros} ago, one batch of {@link #PRUNE_BATCH}
     * per transaction of its own, so that no statement holds many row locks for long.
     *
     * @return how many it deleted
     */
    public int pruneOlderThan(Transactions transactions, long ageMicros) throws SQLException {
        int pruned = 0;
        int batch;
        do {
            batch = transactions.run("prune history", c -> pruneBatch(c, ageMicros));
            pruned += batch;
        } while (batch == PRUNE_BATCH);
        return pruned;
    }

    /**
     * Deletes up to {@link #PRUNE_BATCH} attempts that finished more than {@code ageMicros} ago, oldest first.
     *
     * @return how many it deleted; fewer than the batch means none is left
     */
    public int pruneBatch(Connection c, long ageMicros) throws SQLException {
        long offsetMicros = offsetMicros();
        // The ids first: MariaDB and MySQL cannot LIMIT a subquery of the table being deleted from.
        long[] idArray;
        try (PreparedStatement select = c.prepareStatement("SELECT id FROM " + table + " WHERE finished_at < "
                + dialect.timePlusMicros() + " ORDER BY finished_at LIMIT " + PRUNE_BATCH)) {
            select.setLong(1, Micros.plus(offsetMicros, -ageMicros));
            idArray = Jdbc.readIds(select);
        }
        if (idArray.length == 0) {
            return 0;
        }
        try (PreparedStatement delete =
                c.prepareStatement("DELETE FROM " + table + " WHERE " + dialect.idIn("id", idArray.length))) {
            dialect.bindIds(delete, 1, idArray);
            return delete.executeUpdate();
        }
    }

    private List<Attempt> read(PreparedStatement select) throws SQLException {
        List<Attempt> attempts = new ArrayList<>();
        try (ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                long durationMs = rows.getLong("duration_ms");
                Duration duration = rows.wasNull() ? null : Duration.ofMillis(durationMs);
                String type = rows.getString("error_type");
                String message = rows.getString("error_message");
                String trace = rows.getString("stack_trace");
                attempts.add(new Attempt(
                        rows.getLong("id"),
                        rows.getLong("task_id"),
                        rows.getString("kind"),
                        rows.getString("queue"),
                        rows.getInt("attempt"),
                        rows.getString("node"),
                        dialect.readInstant(rows, "started_at"),
                        dialect.readInstant(rows, "finished_at"),
                        duration,
                        AttemptOutcome.fromDbValue(rows.getString("outcome")),
                        type == null && message == null ? null : new Attempt.AttemptError(type, message, trace),
                        rows.getString("logs")));
            }
        }
        return attempts;
    }

    /** The WHERE clause of a query and its parameters. */
    private final class Filter {
        private final AttemptQuery query;
        private final String where;

        Filter(AttemptQuery query) {
            this.query = query;
            List<String> conditions = new ArrayList<>();
            if (query.kind() != null) {
                conditions.add("kind = ?");
            }
            if (query.outcome() != null) {
                // A literal from the enum, not a parameter: PostgreSQL's index of the attempts that did not
                // succeed is partial, and only a literal proves that a generic plan may use it.
                conditions.add("outcome = '" + query.outcome().dbValue() + "'");
            }
            if (query.finishedFrom() != null) {
                conditions.add("finished_at >= " + dialect.timestampParam());
            }
            if (query.finishedBefore() != null) {
                conditions.add("finished_at < " + dialect.timestampParam());
            }
            if (query.finishedWithin() != null) {
                conditions.add("finished_at >= " + dialect.timePlusMicros());
            }
            if (query.errorContains() != null) {
                conditions.add("(error_type LIKE ? ESCAPE '!' OR error_message LIKE ? ESCAPE '!')");
            }
            this.where = conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions);
        }

        int bind(PreparedStatement statement) throws SQLException {
            int i = 1;
            if (query.kind() != null) {
                statement.setString(i++, query.kind());
            }
            if (query.finishedFrom() != null) {
                statement.setObject(i++, dialect.timestampValue(query.finishedFrom()));
            }
            if (query.finishedBefore() != null) {
                statement.setObject(i++, dialect.timestampValue(query.finishedBefore()));
            }
            if (query.finishedWithin() != null) {
                statement.setLong(i++, Micros.plus(offsetMicros(), -Micros.ofAge(query.finishedWithin())));
            }
            if (query.errorContains() != null) {
                String pattern = "%"
                        + query.errorContains()
                                .replace("!", "!!")
                                .replace("%", "!%")
                                .replace("_", "!_") + "%";
                statement.setString(i++, pattern);
                statement.setString(i++, pattern);
            }
            return i;
        }
    }

    /** The clock's offset in microseconds, read for each statement that means "now". */
    private long offsetMicros() {
        return Micros.of(clock.offset());
    }
}
