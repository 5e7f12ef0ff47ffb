package dev.errand.internal.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import javax.sql.DataSource;

/** PostgreSQL 12 and later. */
public final class PostgresDialect implements Dialect {

    /** PostgreSQL keeps the old savepoint of the same name (nesting them), so it is released first. */
    @Override
    public String savepointAgain(String name) {
        return "RELEASE SAVEPOINT " + name + "; SAVEPOINT " + name;
    }

    @Override
    public String name() {
        return "postgresql";
    }

    @Override
    public String migrationFolder() {
        return "postgresql";
    }

    @Override
    public String unquotedIdentifier(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    @Override
    public String timePlusMicros() {
        // statement_timestamp(), not now(): a long transactional handler must not see its start time.
        return "(statement_timestamp() + CAST(? AS BIGINT) * INTERVAL '1 microsecond')";
    }

    /** The partial unique index's own predicate, so that the planner uses it. */
    @Override
    public String activeUniqueKeyCondition() {
        return "unique_key = ? AND state IN " + States.ACTIVE;
    }

    @Override
    public String jsonParam() {
        return "CAST(? AS jsonb)";
    }

    @Override
    public String appendErrorEntry(String column) {
        return "COALESCE(" + column + ", '[]'::jsonb) || jsonb_build_array(CAST(? AS jsonb)"
                + " || jsonb_build_object('at', " + timePlusMicros() + "))";
    }

    @Override
    public String errorEntryParam(String entryJson) {
        return entryJson;
    }

    @Override
    public boolean supportsLateralJoin() {
        return true;
    }

    @Override
    public boolean supportsUpdateReturning() {
        return true;
    }

    @Override
    public boolean updatesReturnRows() {
        return true;
    }

    @Override
    public boolean skipsDuplicates() {
        return true;
    }

    @Override
    public String insertSkippingDuplicates(String intoAndValues, String conflictTarget) {
        return "INSERT INTO " + intoAndValues + " ON CONFLICT " + conflictTarget + (conflictTarget.isEmpty() ? "" : " ")
                + "DO NOTHING";
    }

    @Override
    public boolean acceptsNul() {
        return false;
    }

    @Override
    public boolean deliversNotifications() {
        return true;
    }

    @Override
    public TaskInserter inserter(String table, DataSource dataSource) {
        return new PostgresTaskInserter(new InsertStatement(this, table), new UniqueKeys(this, table, dataSource));
    }

    @Override
    public void notifyOnCommit(Connection connection, String channel, String queue) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT pg_notify(?, ?)")) {
            statement.setString(1, channel);
            statement.setString(2, queue);
            statement.execute();
        }
    }

    @Override
    public void boundTransaction(Connection connection, Duration idle, Duration statement) throws SQLException {
        // set_config(..., true) is SET LOCAL: it ends with the transaction, whether it commits or not.
        String sql = statement == null
                ? "SELECT set_config('idle_in_transaction_session_timeout', ?, true)"
                : "SELECT set_config('idle_in_transaction_session_timeout', ?, true),"
                        + " set_config('statement_timeout', ?, true)";
        try (PreparedStatement bound = connection.prepareStatement(sql)) {
            bound.setString(1, Math.max(1, idle.toMillis()) + "ms");
            if (statement != null) {
                bound.setString(2, Math.max(1, statement.toMillis()) + "ms");
            }
            bound.executeQuery().close();
        }
    }

    /** The {@code rows=} of the plan's top node. */
    @Override
    public java.util.OptionalLong estimateRows(Connection connection, String select, java.util.List<Object> parameters)
            throws SQLException {
        try (PreparedStatement explain = connection.prepareStatement("EXPLAIN " + select)) {
            for (int i = 0; i < parameters.size(); i++) {
                explain.setObject(i + 1, parameters.get(i));
            }
            try (ResultSet plan = explain.executeQuery()) {
                if (plan.next()) {
                    java.util.regex.Matcher rows = PLAN_ROWS.matcher(plan.getString(1));
                    if (rows.find()) {
                        return java.util.OptionalLong.of(Long.parseLong(rows.group(1)));
                    }
                }
            }
        }
        return java.util.OptionalLong.empty();
    }

    private static final java.util.regex.Pattern PLAN_ROWS = java.util.regex.Pattern.compile(" rows=(\\d+)");

    /** Reads {@code standard_conforming_strings}: off, a backslash escapes in every {@code '...'} literal. */
    @Override
    public SqlQuoting sqlQuoting(Connection connection) throws SQLException {
        try (Statement show = connection.createStatement();
                ResultSet row = show.executeQuery("SHOW standard_conforming_strings")) {
            boolean standard = !row.next() || !"off".equalsIgnoreCase(row.getString(1));
            return standard ? SqlQuoting.POSTGRESQL : new SqlQuoting(SqlQuoting.Family.POSTGRESQL, true, true, false);
        }
    }
}
