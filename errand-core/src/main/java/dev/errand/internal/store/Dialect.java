package dev.errand.internal.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import javax.sql.DataSource;

/**
 * What differs between databases: SQL fragments for time, JSON and id lists, the insert path and the
 * wake-up channel. Every time fragment reads the database clock; the bound offset (in microseconds)
 * carries delays, leases and a test clock's shift.
 */
public interface Dialect {

    /** A short name, such as {@code postgresql}. */
    String name();

    /** The folder of this dialect's migration scripts under {@code dev/errand/schema/}. */
    String migrationFolder();

    /**
     * A table name as the database stores an unquoted identifier. Flyway quotes the names it is
     * given, so its history table must be named in this case to be reachable without quotes.
     */
    default String unquotedIdentifier(String name) {
        return name;
    }

    /** An expression for the database's current time plus a bound number of microseconds (one {@code ?}). */
    String timePlusMicros();

    /** A bound timestamp-with-time-zone parameter (one {@code ?}). */
    default String timestampParam() {
        return "CAST(? AS TIMESTAMP WITH TIME ZONE)";
    }

    /** A bound JSON parameter (one {@code ?}), bound as a string. */
    String jsonParam();

    /**
     * The condition, with one {@code ?} for the key, that finds the active task holding a unique key through
     * the unique index: the generated {@code active_unique_key} column that MariaDB and H2 index (a condition
     * on {@code unique_key} there scans the table).
     */
    default String activeUniqueKeyCondition() {
        return "active_unique_key = ?";
    }

    /**
     * An expression that appends one entry to the JSON array in {@code column}. It takes two
     * parameters: the entry from {@link #errorEntryParam(String)}, then the time offset in microseconds,
     * from which the entry's {@code at} field is filled with the database time.
     */
    String appendErrorEntry(String column);

    /** Prepares a JSON object (without an {@code at} field) for {@link #appendErrorEntry(String)}. */
    String errorEntryParam(String entryJson);

    /**
     * A condition that {@code column} is one of {@code count} bound ids. The default binds one array
     * parameter whatever the count, so the statement text never changes.
     */
    default String idIn(String column, int count) {
        return column + " = ANY(?)";
    }

    /**
     * Binds the ids of an {@link #idIn(String, int)} condition from parameter {@code index}.
     *
     * @return the index of the next parameter
     */
    default int bindIds(PreparedStatement statement, int index, long[] ids) throws SQLException {
        Long[] boxed = new Long[ids.length];
        for (int i = 0; i < ids.length; i++) {
            boxed[i] = ids[i];
        }
        statement.setArray(index, statement.getConnection().createArrayOf("BIGINT", boxed));
        return index + 1;
    }

    /** The JDBC value that binds {@code instant} to {@link #timestampParam()}, or null. */
    default Object timestampValue(Instant instant) {
        return instant == null ? null : OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    /** Reads a timestamp column written by Errand as an instant, or null. */
    default Instant readInstant(ResultSet row, String column) throws SQLException {
        OffsetDateTime value = row.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    /**
     * Prepares a connection for one of Errand's own transactions.
     *
     * @return a value that {@link #restoreConnection(Connection, int)} takes to undo it
     */
    default int prepareConnection(Connection connection) throws SQLException {
        return -1;
    }

    /** Undoes {@link #prepareConnection(Connection)} before the connection goes back to its pool. */
    default void restoreConnection(Connection connection, int prepared) throws SQLException {
        // Nothing was changed.
    }

    /**
     * Whether this failure is a deadlock or lock timeout after which the whole transaction may simply
     * run again.
     */
    default boolean isLockConflict(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                String state = sql.getSQLState();
                // 40001 serialization failure, 40P01 deadlock, 55P03 lock_timeout.
                if ("40001".equals(state) || "40P01".equals(state) || "55P03".equals(state)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Bounds the current transaction on the server, where the database can: a transaction left idle longer
     * than {@code idle} (its worker stalled or partitioned) is ended by the server, which frees its row
     * locks; with {@code statement} set, a statement running longer is cancelled. Only for the current
     * transaction: the pooled connection keeps its own settings afterwards.
     *
     * @param statement the longest one statement may run, or {@code null} for the server's setting
     */
    default void boundTransaction(Connection connection, Duration idle, Duration statement) throws SQLException {
        // Not supported by this database: the lease and rescue remain the only bound.
    }

    /**
     * Whether this failure means the connection or the server went away under the transaction: a lost or
     * refused connection (SQL state class 08), a server shutting down or restarting (57P01, 57P02, 57P03),
     * or a session the server ended ({@code 57014} is not one: a cancelled statement is the caller's). Such
     * a failure is the infrastructure's, never the handler's.
     */
    default boolean isConnectionFailure(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.sql.SQLNonTransientConnectionException
                    || t instanceof java.sql.SQLTransientConnectionException
                    || t instanceof java.sql.SQLRecoverableException) {
                return true;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                String state = sql.getSQLState();
                if (state.startsWith("08") || "57P01".equals(state) || "57P02".equals(state) || "57P03".equals(state)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Whether the database has {@code LATERAL} joins and {@code generate_series}, so that a claim can
     * read one index range per priority (see the claim strategies).
     */
    default boolean supportsLateralJoin() {
        return false;
    }

    /**
     * Whether the optimizer turns {@code priority IN (1, …, 10)} followed by a range on {@code run_at}
     * into one index range per priority, read in index order (MariaDB and MySQL do; H2 does not).
     */
    default boolean readsPriorityListAsRanges() {
        return false;
    }

    /**
     * An {@code ORDER BY} list for a query whose {@code WHERE} fixes {@code equalColumns} by equality and whose
     * index is {@code (equalColumns, order)}. H2 reads such an index in order, and stops at the {@code LIMIT},
     * only when the {@code ORDER BY} names the index's columns from the first: ordered by {@code order} alone it
     * reads every matching row and sorts them (a claim at a backlog of 100,000 read all of them, 150 ms, against
     * 0.1 ms). PostgreSQL and MariaDB drop a column fixed by equality from the order, so they get
     * {@code order} alone.
     *
     * @param equalColumns the leading index columns the query fixes, such as {@code "state, queue"}
     * @param order the order wanted, such as {@code "priority, run_at"}
     */
    default String orderAlongIndex(String equalColumns, String order) {
        return order;
    }

    /**
     * Whether {@code SELECT … ORDER BY … LIMIT n FOR UPDATE SKIP LOCKED} reads and locks every row that matches
     * before it applies the limit, as H2 does: a claim at a backlog of 50,000 took 600 to 800 ms. Such a
     * database locks the first {@code n} of an unlocked, ordered read instead (see the claim SQL).
     */
    default boolean locksEveryMatchBeforeTheLimit() {
        return false;
    }

    /** Whether an UPDATE can return the rows it changed, so a claim takes one statement. */
    boolean supportsUpdateReturning();

    /** Whether this SQL state means a unique key was already taken. */
    default boolean isUniqueViolation(SQLException e) {
        return "23505".equals(e.getSQLState());
    }

    /** Sends a wake-up for {@code queue} that the database delivers when the transaction commits. */
    default void notifyOnCommit(Connection connection, String channel, String queue) throws SQLException {
        // No database-side notifications: in-process signals and polling wake the workers.
    }

    /**
     * Whether the database delivers {@link #notifyOnCommit} wake-ups to listening nodes (PostgreSQL's
     * LISTEN/NOTIFY); elsewhere nodes wake each other by polling.
     */
    default boolean deliversNotifications() {
        return false;
    }

    /**
     * Whether an UPDATE or DELETE may lock rows it reads but does not change, for as long as the transaction lasts:
     * InnoDB under REPEATABLE READ (MariaDB's and MySQL's default, which a host's transaction may keep) locks every
     * row its scan reads, and on a small table it scans the whole primary key rather than look up an id list. A
     * statement on many ids in such a transaction then goes one row at a time, by primary key.
     */
    default boolean scansLockEveryRowRead() {
        return false;
    }

    /**
     * The statement that sets savepoint {@code name} again in a transaction that has it already, dropping the old
     * one: the SQL standard's and MariaDB's and H2's {@code SAVEPOINT} replaces a savepoint of the same name.
     * Group commit sets one such savepoint before each task.
     */
    default String savepointAgain(String name) {
        return "SAVEPOINT " + name;
    }

    /**
     * Whether an UPDATE can return the rows it changed ({@code RETURNING}), also inside a {@code WITH}, so that
     * one statement both writes and reads.
     */
    default boolean updatesReturnRows() {
        return false;
    }

    /**
     * An INSERT that skips a row whose unique key is taken instead of failing, where the database can say so
     * (PostgreSQL's {@code ON CONFLICT DO NOTHING}, MariaDB's {@code INSERT IGNORE}); elsewhere a plain INSERT,
     * whose duplicate the caller handles.
     *
     * @param intoAndValues what follows {@code INSERT INTO}: the table, the columns and the values
     * @param conflictTarget the unique columns in parentheses, such as {@code (name)}, or {@code ""} for any
     */
    default String insertSkippingDuplicates(String intoAndValues, String conflictTarget) {
        return "INSERT INTO " + intoAndValues;
    }

    /**
     * Whether a recursive query that probes an index for the next distinct value after the last one reads one index
     * entry a step (PostgreSQL, H2). MariaDB's optimizer reads such a correlated probe from the start of the index
     * prefix at every step, so there each probe is a statement of its own.
     */
    default boolean probesIndexInRecursiveQuery() {
        return true;
    }

    /**
     * Whether {@link #insertSkippingDuplicates} skips the rows that exist already, so that one statement may insert
     * several rows of which some exist; otherwise it fails on the first one, and rows go one statement each.
     */
    default boolean skipsDuplicates() {
        return false;
    }

    /** Whether a text parameter may hold a NUL character (PostgreSQL refuses one with an error). */
    default boolean acceptsNul() {
        return true;
    }

    /**
     * The inserter that fits this database.
     *
     * @param table the task table
     * @param dataSource for unique-key look-ups outside the caller's snapshot
     */
    default TaskInserter inserter(String table, DataSource dataSource) {
        return new JdbcBatchTaskInserter(
                this, new InsertStatement(this, table), new UniqueKeys(this, table, dataSource));
    }

    /**
     * The planner's estimate of how many rows {@code select} returns, read from {@code EXPLAIN} without running
     * it, or empty where this dialect has none (the caller then counts). For counts too large to count on
     * every page refresh.
     *
     * @param select a {@code SELECT} with {@code ?} parameters
     * @param parameters its parameters, bound with {@code setObject} in order
     */
    default java.util.OptionalLong estimateRows(Connection connection, String select, java.util.List<Object> parameters)
            throws SQLException {
        return java.util.OptionalLong.empty();
    }

    /**
     * How this session reads SQL quoting (see {@link SqlQuoting}), with the session settings that change it as
     * they are now: a guard that reads a caller's SQL must read it as the session that runs it.
     */
    SqlQuoting sqlQuoting(Connection connection) throws SQLException;
}
