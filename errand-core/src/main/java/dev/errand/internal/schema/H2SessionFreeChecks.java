package dev.errand.internal.schema;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.migration.Context;
import org.flywaydb.core.api.migration.JavaMigration;

/**
 * H2 migration 3: rewrites the task table's string comparisons so that they survive the session that
 * created them.
 *
 * <p>H2 2.4.240 (the version Spring Boot 4.1 manages) binds a CHECK constraint or generated column
 * that compares strings with {@code IN (…)} or {@code =} to the session that ran the DDL. Once that
 * connection closes, every write to the table fails with "The database has been closed" or "Check
 * constraint invalid" (h2database issues 4291, 4308, 4342). Migration 1 has two such expressions: the
 * {@code state} CHECK and the {@code active_unique_key} column behind the unique-key index. This
 * migration replaces both with {@code REGEXP_LIKE}, which compares nothing through the session and
 * means the same. It is written in Java because H2 named the inline CHECK itself: the name is looked
 * up, not known. It also repairs databases that the bug has already struck.
 */
public final class H2SessionFreeChecks implements JavaMigration {

    /** Every state a task row may have, as a regular expression. */
    static final String ANY_STATE = "^(pending|waiting|running|succeeded|failed|cancelled)$";
    /** The states in which a task holds its unique key. */
    static final String ACTIVE_STATE = "^(pending|waiting|running)$";

    @Override
    public MigrationVersion getVersion() {
        return MigrationVersion.fromVersion("3");
    }

    @Override
    public String getDescription() {
        return "session free string checks";
    }

    @Override
    public Integer getChecksum() {
        return 3_240;
    }

    @Override
    public boolean canExecuteInTransaction() {
        return true;
    }

    @Override
    public void migrate(Context context) throws SQLException {
        String prefix = context.getConfiguration().getPlaceholders().get("prefix");
        String table = prefix + "task";
        Connection connection = context.getConnection();
        try (Statement ddl = connection.createStatement()) {
            for (String constraint : stateChecks(connection, table.toUpperCase(Locale.ROOT))) {
                ddl.execute("ALTER TABLE " + table + " DROP CONSTRAINT \"" + constraint + "\"");
            }
            ddl.execute("ALTER TABLE " + table + " ADD CONSTRAINT " + table + "_state_check CHECK (REGEXP_LIKE(state, '"
                    + ANY_STATE + "'))");
            ddl.execute("DROP INDEX IF EXISTS " + prefix + "task_unique_key_idx");
            ddl.execute("ALTER TABLE " + table + " DROP COLUMN active_unique_key");
            ddl.execute("ALTER TABLE " + table + " ADD COLUMN active_unique_key VARCHAR(200) GENERATED ALWAYS AS"
                    + " (CASE WHEN REGEXP_LIKE(state, '" + ACTIVE_STATE + "') THEN unique_key END)");
            ddl.execute("CREATE UNIQUE INDEX " + prefix + "task_unique_key_idx ON " + table + " (active_unique_key)");
        }
    }

    /** The names of the CHECK constraints on the table that test {@code state}. */
    private static List<String> stateChecks(Connection connection, String table) throws SQLException {
        List<String> names = new ArrayList<>();
        try (PreparedStatement query = connection.prepareStatement("SELECT tc.CONSTRAINT_NAME"
                + " FROM INFORMATION_SCHEMA.TABLE_CONSTRAINTS tc JOIN INFORMATION_SCHEMA.CHECK_CONSTRAINTS cc"
                + " ON cc.CONSTRAINT_SCHEMA = tc.CONSTRAINT_SCHEMA AND cc.CONSTRAINT_NAME = tc.CONSTRAINT_NAME"
                + " WHERE tc.TABLE_SCHEMA = CURRENT_SCHEMA AND tc.TABLE_NAME = ? AND tc.CONSTRAINT_TYPE = 'CHECK'"
                + " AND cc.CHECK_CLAUSE LIKE '%\"STATE\"%'")) {
            query.setString(1, table);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    names.add(rows.getString(1));
                }
            }
        }
        return names;
    }
}
