package dev.errand.internal.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * MariaDB 10.6+ and MySQL 8.0.1+ (the versions with {@code FOR UPDATE SKIP LOCKED}).
 *
 * <p>Times are {@code DATETIME(6)} holding UTC, read and written as UTC {@link LocalDateTime}s and
 * compared with {@code UTC_TIMESTAMP(6)}, so neither the session's nor the JVM's time zone matters
 * and no column changes on its own. There are no arrays, so id lists bind one parameter per id,
 * padded to a power of two to keep the number of distinct statements small. Errand's own
 * transactions run at READ COMMITTED, where {@code SKIP LOCKED} claims take no gap locks.
 */
public final class MariaDbDialect implements Dialect {

    private static final int DUPLICATE_KEY = 1062;
    private static final int DEADLOCK = 1213;
    private static final int LOCK_WAIT_TIMEOUT = 1205;
    // KILL CONNECTION (ER_CONNECTION_KILLED), a server shutting down, and the client's "gone away" and "lost".
    private static final int CONNECTION_KILLED = 1927;
    private static final int SERVER_SHUTDOWN = 1053;
    private static final int SERVER_GONE = 2006;
    private static final int SERVER_LOST = 2013;

    @Override
    public boolean scansLockEveryRowRead() {
        return true;
    }

    @Override
    public String name() {
        return "mariadb";
    }

    @Override
    public String migrationFolder() {
        return "mysql";
    }

    @Override
    public String timePlusMicros() {
        return "TIMESTAMPADD(MICROSECOND, ?, UTC_TIMESTAMP(6))";
    }

    @Override
    public String timestampParam() {
        return "CAST(? AS DATETIME(6))";
    }

    @Override
    public Object timestampValue(Instant instant) {
        return instant == null ? null : LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    @Override
    public Instant readInstant(ResultSet row, String column) throws SQLException {
        LocalDateTime value = row.getObject(column, LocalDateTime.class);
        return value == null ? null : value.toInstant(ZoneOffset.UTC);
    }

    @Override
    public String jsonParam() {
        return "?";
    }

    @Override
    public String appendErrorEntry(String column) {
        return "CONCAT(CASE WHEN " + column + " IS NULL OR " + column + " = '' THEN '[' ELSE CONCAT(SUBSTRING("
                + column + ", 1, CHAR_LENGTH(" + column + ") - 1), ',') END, ?, ',\"at\":\"', DATE_FORMAT("
                + timePlusMicros() + ", '%Y-%m-%dT%H:%i:%s.%fZ'), '\"}]')";
    }

    @Override
    public String errorEntryParam(String entryJson) {
        return entryJson.substring(0, entryJson.lastIndexOf('}'));
    }

    @Override
    public String idIn(String column, int count) {
        StringBuilder in = new StringBuilder(column).append(" IN (");
        for (int i = 0, padded = padded(count); i < padded; i++) {
            in.append(i == 0 ? "?" : ", ?");
        }
        return in.append(')').toString();
    }

    @Override
    public int bindIds(PreparedStatement statement, int index, long[] ids) throws SQLException {
        int padded = padded(ids.length);
        for (int i = 0; i < padded; i++) {
            // Repeating the last id fills the padding without changing what the list matches.
            statement.setLong(index + i, ids[Math.min(i, ids.length - 1)]);
        }
        return index + padded;
    }

    private static int padded(int count) {
        return count <= 1 ? 1 : Integer.highestOneBit(count - 1) << 1;
    }

    @Override
    public boolean supportsUpdateReturning() {
        return false;
    }

    @Override
    public boolean isUniqueViolation(SQLException e) {
        return e.getErrorCode() == DUPLICATE_KEY || "23505".equals(e.getSQLState());
    }

    @Override
    public boolean isLockConflict(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql
                    && (sql.getErrorCode() == DEADLOCK
                            || sql.getErrorCode() == LOCK_WAIT_TIMEOUT
                            || "40001".equals(sql.getSQLState()))) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean isConnectionFailure(SQLException e) {
        if (Dialect.super.isConnectionFailure(e)) {
            return true;
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql
                    && (sql.getErrorCode() == CONNECTION_KILLED
                            || sql.getErrorCode() == SERVER_SHUTDOWN
                            || sql.getErrorCode() == SERVER_GONE
                            || sql.getErrorCode() == SERVER_LOST)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public int prepareConnection(Connection connection) throws SQLException {
        int isolation = connection.getTransactionIsolation();
        if (isolation != Connection.TRANSACTION_READ_COMMITTED) {
            connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        }
        return isolation;
    }

    @Override
    public void restoreConnection(Connection connection, int prepared) throws SQLException {
        if (prepared != Connection.TRANSACTION_READ_COMMITTED && prepared != -1) {
            connection.setTransactionIsolation(prepared);
        }
    }

    @Override
    public boolean readsPriorityListAsRanges() {
        return true;
    }

    /** The {@code rows} that {@code EXPLAIN} expects to read from the table (an upper bound of the matches). */
    @Override
    public java.util.OptionalLong estimateRows(Connection connection, String select, java.util.List<Object> parameters)
            throws SQLException {
        try (PreparedStatement explain = connection.prepareStatement("EXPLAIN " + select)) {
            for (int i = 0; i < parameters.size(); i++) {
                explain.setObject(i + 1, parameters.get(i));
            }
            try (ResultSet plan = explain.executeQuery()) {
                if (plan.next()) {
                    long rows = plan.getLong("rows");
                    return plan.wasNull() ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(rows);
                }
            }
        }
        return java.util.OptionalLong.empty();
    }

    /** Reads the session's {@code sql_mode} for {@code NO_BACKSLASH_ESCAPES} and {@code ANSI_QUOTES}. */
    @Override
    public SqlQuoting sqlQuoting(Connection connection) throws SQLException {
        try (Statement show = connection.createStatement();
                ResultSet row = show.executeQuery("SELECT @@SESSION.sql_mode")) {
            String modes = row.next() && row.getString(1) != null ? row.getString(1) : "";
            List<String> mode = Arrays.asList(modes.toUpperCase(Locale.ROOT).split(","));
            // ANSI is a combination mode; the server reports its parts, but a shorthand costs nothing to read.
            boolean ansiQuotes = mode.contains("ANSI_QUOTES") || mode.contains("ANSI");
            return new SqlQuoting(SqlQuoting.Family.MARIADB, !mode.contains("NO_BACKSLASH_ESCAPES"), ansiQuotes, false);
        }
    }

    @Override
    public boolean probesIndexInRecursiveQuery() {
        return false;
    }

    @Override
    public boolean skipsDuplicates() {
        return true;
    }

    @Override
    public String insertSkippingDuplicates(String intoAndValues, String conflictTarget) {
        return "INSERT IGNORE INTO " + intoAndValues;
    }
}
