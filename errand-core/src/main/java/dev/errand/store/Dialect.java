package dev.errand.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

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
     * An expression that appends one entry to the JSON array in {@code column}. It takes two
     * parameters: the entry from {@link #errorEntryParam(String)}, then the time offset in microseconds,
     * from which the entry's {@code at} field is filled with the database time.
     */
    String appendErrorEntry(String column);

    /** Prepares a JSON object (without an {@code at} field) for {@link #appendErrorEntry(String)}. */
    String errorEntryParam(String entryJson);

    /** A condition that {@code column} is one of a bound id array (one {@code ?}). */
    default String idIn(String column) {
        return column + " = ANY(?)";
    }

    /** Binds an id array for {@link #idIn(String)}. */
    default void bindIds(PreparedStatement statement, int index, long[] ids) throws SQLException {
        Long[] boxed = new Long[ids.length];
        for (int i = 0; i < ids.length; i++) {
            boxed[i] = ids[i];
        }
        statement.setArray(index, statement.getConnection().createArrayOf("BIGINT", boxed));
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
}
