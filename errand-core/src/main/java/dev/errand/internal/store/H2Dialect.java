package dev.errand.internal.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/** H2 2.x, the embedded default (file or in-memory). */
public final class H2Dialect implements Dialect {

    @Override
    public String name() {
        return "h2";
    }

    @Override
    public String migrationFolder() {
        return "h2";
    }

    @Override
    public String unquotedIdentifier(String name) {
        return name.toUpperCase(Locale.ROOT);
    }

    @Override
    public String timePlusMicros() {
        return "DATEADD(MICROSECOND, CAST(? AS BIGINT), CURRENT_TIMESTAMP)";
    }

    @Override
    public String jsonParam() {
        return "?";
    }

    @Override
    public String appendErrorEntry(String column) {
        // Errors are a JSON array kept as text: drop the closing bracket, add the entry, close again.
        return "CONCAT(CASE WHEN " + column + " IS NULL THEN '[' ELSE CONCAT(SUBSTRING(" + column
                + " FROM 1 FOR CHAR_LENGTH(" + column + ") - 1), ',') END, ?, ',\"at\":\"', CAST("
                + timePlusMicros() + " AS VARCHAR), '\"}]')";
    }

    @Override
    public String errorEntryParam(String entryJson) {
        return entryJson.substring(0, entryJson.lastIndexOf('}'));
    }

    @Override
    public boolean isLockConflict(SQLException e) {
        // 40001: deadlock; 50200 (HYT00): lock wait timeout.
        return "40001".equals(e.getSQLState()) || e.getErrorCode() == 50200;
    }

    @Override
    public boolean supportsUpdateReturning() {
        return false;
    }

    /**
     * H2 reads quotes the same in every compatibility mode but one: {@code MODE=MSSQLServer} also quotes names in
     * square brackets.
     */
    @Override
    public SqlQuoting sqlQuoting(Connection connection) throws SQLException {
        try (Statement show = connection.createStatement();
                ResultSet row = show.executeQuery(
                        "SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = 'MODE'")) {
            boolean brackets = row.next() && "MSSQLServer".equalsIgnoreCase(row.getString(1));
            return brackets ? new SqlQuoting(SqlQuoting.Family.H2, false, true, true) : SqlQuoting.H2;
        }
    }

    @Override
    public String orderAlongIndex(String equalColumns, String order) {
        return equalColumns + ", " + order;
    }

    @Override
    public boolean probesIndexInRecursiveQuery() {
        return false;
    }

    @Override
    public boolean locksEveryMatchBeforeTheLimit() {
        return true;
    }
}
