package dev.errand.internal.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Looks up the active task that holds a unique key: first on the caller's connection (which sees
 * the caller's own uncommitted tasks), then on a fresh connection, which sees tasks other
 * transactions committed after the caller's snapshot was taken (REPEATABLE READ, MariaDB's default).
 */
final class UniqueKeys {

    private final String sql;
    private final DataSource dataSource;

    UniqueKeys(Dialect dialect, String table, DataSource dataSource) {
        this.sql = "SELECT id FROM " + table + " WHERE " + dialect.activeUniqueKeyCondition();
        this.dataSource = dataSource;
    }

    /** The id of the active holder, or -1 if none is visible. */
    long activeHolder(Connection connection, String uniqueKey) throws SQLException {
        long holder = lookUp(connection, uniqueKey);
        if (holder >= 0) {
            return holder;
        }
        try (Connection fresh = dataSource.getConnection()) {
            fresh.setAutoCommit(true);
            return lookUp(fresh, uniqueKey);
        }
    }

    private long lookUp(Connection connection, String uniqueKey) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, uniqueKey);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? rows.getLong(1) : -1;
            }
        }
    }
}
