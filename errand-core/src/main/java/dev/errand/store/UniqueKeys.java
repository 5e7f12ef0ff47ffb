package dev.errand.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Looks up the active task that holds a unique key. */
final class UniqueKeys {

    static final String ACTIVE_STATES = "('pending', 'waiting', 'running')";

    private final String sql;

    UniqueKeys(String table) {
        this.sql = "SELECT id FROM " + table + " WHERE unique_key = ? AND state IN " + ACTIVE_STATES;
    }

    /** The id of the active holder, or -1 if none is visible. */
    long activeHolder(Connection connection, String uniqueKey) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, uniqueKey);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? rows.getLong(1) : -1;
            }
        }
    }
}
