package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.Errand;
import dev.errand.ErrandSchema;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import dev.errand.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link ErrandSchema}: migrations without a node, and the DDL as text for teams that run it themselves. */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class ErrandSchemaContractTest extends ErrandTestSupport {

    ErrandSchemaContractTest(Target target) {
        super(target);
    }

    @Test
    void migrateAppliesEveryScriptOnceAndTheSchemaWorks() throws Exception {
        int applied = ErrandSchema.migrate(dataSource(), prefix);

        assertThat(applied).isGreaterThanOrEqualTo(12);
        assertThat(ErrandSchema.migrate(dataSource(), prefix)).isZero();
        Errand errand = node(builder().migrationsEnabled(false).processingEnabled(false));
        long id = errand.enqueue(TaskRequest.of("k", 1)).id();
        assertThat(task(errand, id).state()).isEqualTo(TaskState.PENDING);
    }

    @Test
    void theDdlMakesTheSchemaThatMigrateMakes() throws Exception {
        String printed = TestDatabase.newPrefix();
        try {
            ErrandSchema.migrate(dataSource(), prefix);
            String ddl = ErrandSchema.ddl(dialect(), printed);
            runInASessionOfItsOwn(ddl);

            assertThat(shape(printed)).isNotEmpty().isEqualTo(shape(prefix));
            if (database.isH2()) {
                assertThat(h2Checks(printed)).isEqualTo(h2Checks(prefix));
            }
            // The session that ran the DDL is closed: on H2 2.4 a check bound to it would fail every insert.
            Errand errand =
                    node(builder().tablePrefix(printed).migrationsEnabled(false).processingEnabled(false));
            long first = errand.enqueue(
                            TaskRequest.builder("k", 1).uniqueKey("u").build())
                    .id();
            assertThat(errand.enqueue(TaskRequest.builder("k", 2).uniqueKey("u").build())
                            .id())
                    .isEqualTo(first);
            assertThat(errand.admin().cancel(first)).isTrue();
            assertThat(task(errand, first).state()).isEqualTo(TaskState.CANCELLED);
        } finally {
            database.dropTables(printed);
        }
    }

    @Test
    void theDdlHoldsEveryScriptInVersionOrderWithThePrefix() {
        String ddl = ErrandSchema.ddl(dialect().toUpperCase(Locale.ROOT), prefix);

        assertThat(ddl).doesNotContain("${prefix}").contains("CREATE TABLE " + prefix + "task");
        List<Integer> versions = new ArrayList<>();
        var headers = Pattern.compile("(?m)^-- V(\\d+)__").matcher(ddl);
        while (headers.find()) {
            versions.add(Integer.parseInt(headers.group(1)));
        }
        assertThat(versions).startsWith(1, 2).isSorted().doesNotHaveDuplicates().contains(13);
        assertThat(versions.contains(3)).as("V3 is H2's Java migration").isFalse();
    }

    @Test
    void badArgumentsAreRefusedWithWhatIsAccepted() {
        assertThatThrownBy(() -> ErrandSchema.ddl("oracle", "errand_"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("postgresql, mariadb, mysql, h2");
        assertThatThrownBy(() -> ErrandSchema.ddl(null, "errand_")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ErrandSchema.ddl("h2", "x; DROP TABLE t"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("plain SQL identifier");
        assertThatThrownBy(() -> ErrandSchema.migrate(dataSource(), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("plain SQL identifier");
        assertThatThrownBy(() -> ErrandSchema.migrate(null, "errand_"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dataSource");
    }

    private String dialect() {
        return switch (database) {
            case POSTGRES -> "postgresql";
            case MARIADB -> "mariadb";
            case H2, H2_UNPOOLED -> "h2";
        };
    }

    /** Runs the DDL as a DBA would: one session, closed afterwards, outside any pool. */
    private void runInASessionOfItsOwn(String ddl) throws SQLException {
        String url = database == TestDatabase.MARIADB ? database.url() + "?allowMultiQueries=true" : database.url();
        try (Connection c = DriverManager.getConnection(url, database.userName(), "");
                Statement s = c.createStatement()) {
            s.execute(ddl);
        }
    }

    /** The tables, columns and indexes under a prefix, with the prefix taken out of every name. */
    private Set<String> shape(String tablePrefix) throws SQLException {
        Set<String> shape = new TreeSet<>();
        try (Connection c = dataSource().getConnection()) {
            DatabaseMetaData meta = c.getMetaData();
            for (String table : tables(c, tablePrefix)) {
                String lower = table.toLowerCase(Locale.ROOT);
                if (lower.endsWith("schema_history") || lower.equals(tablePrefix.toLowerCase(Locale.ROOT) + "effect")) {
                    continue; // Flyway's own, and the test's
                }
                String name = strip(table, tablePrefix);
                try (ResultSet columns = meta.getColumns(c.getCatalog(), null, table, null)) {
                    while (columns.next()) {
                        shape.add(name + "." + columns.getString("COLUMN_NAME").toLowerCase(Locale.ROOT) + " "
                                + columns.getString("TYPE_NAME") + "(" + columns.getInt("COLUMN_SIZE") + ") "
                                + columns.getString("IS_NULLABLE") + " default "
                                + strip(String.valueOf(columns.getString("COLUMN_DEF")), tablePrefix));
                    }
                }
                try (ResultSet indexes = meta.getIndexInfo(c.getCatalog(), null, table, false, false)) {
                    while (indexes.next()) {
                        if (indexes.getString("INDEX_NAME") != null) {
                            // H2 numbers the names of primary keys.
                            String index = indexes.getString("INDEX_NAME").replaceAll("^PRIMARY_KEY_.*", "PRIMARY_KEY");
                            shape.add(name + " index " + strip(index, tablePrefix)
                                    + " unique=" + !indexes.getBoolean("NON_UNIQUE") + " "
                                    + indexes.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
                        }
                    }
                }
            }
        }
        return shape;
    }

    /** H2's check constraints on the tables under a prefix: name (when not generated) and clause. */
    private Set<String> h2Checks(String tablePrefix) throws SQLException {
        Set<String> checks = new TreeSet<>();
        try (Connection c = dataSource().getConnection();
                var query = c.prepareStatement("SELECT tc.TABLE_NAME, tc.CONSTRAINT_NAME, cc.CHECK_CLAUSE"
                        + " FROM INFORMATION_SCHEMA.TABLE_CONSTRAINTS tc JOIN INFORMATION_SCHEMA.CHECK_CONSTRAINTS cc"
                        + " ON cc.CONSTRAINT_SCHEMA = tc.CONSTRAINT_SCHEMA AND cc.CONSTRAINT_NAME = tc.CONSTRAINT_NAME"
                        + " WHERE tc.TABLE_NAME LIKE ? AND tc.CONSTRAINT_TYPE = 'CHECK'")) {
            query.setString(1, tablePrefix.toUpperCase(Locale.ROOT) + "%");
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    String constraint = rows.getString(2);
                    checks.add(strip(rows.getString(1), tablePrefix) + " "
                            + (constraint.startsWith("CONSTRAINT_") ? "" : strip(constraint, tablePrefix) + " ")
                            + strip(rows.getString(3), tablePrefix));
                }
            }
        }
        return checks;
    }

    private static List<String> tables(Connection c, String tablePrefix) throws SQLException {
        List<String> tables = new ArrayList<>();
        DatabaseMetaData meta = c.getMetaData();
        for (String casing : Set.of(tablePrefix.toLowerCase(Locale.ROOT), tablePrefix.toUpperCase(Locale.ROOT))) {
            String pattern = casing.replace("_", meta.getSearchStringEscape() + "_") + "%";
            try (ResultSet rows = meta.getTables(c.getCatalog(), null, pattern, new String[] {"TABLE"})) {
                while (rows.next()) {
                    if (!tables.contains(rows.getString("TABLE_NAME"))) {
                        tables.add(rows.getString("TABLE_NAME"));
                    }
                }
            }
        }
        return tables;
    }

    private static String strip(String text, String tablePrefix) {
        return text.replaceAll("(?i)" + Pattern.quote(tablePrefix), "<p>");
    }
}
