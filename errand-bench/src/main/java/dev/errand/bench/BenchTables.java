package dev.errand.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.sql.DataSource;

/** The table chores of the standalone benchmarks: a pool, a run's prefix, run a statement, drop a run's tables. */
final class BenchTables {

    private BenchTables() {}

    /** A pool of four connections to a benchmark's database. */
    static HikariDataSource pool(String url, String user, String password) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(4);
        return new HikariDataSource(config);
    }

    /** A fresh table prefix for one run, so that two runs never share tables. */
    static String runPrefix(String stem) {
        return stem + Long.toHexString(System.nanoTime() & 0xffffffL) + "_";
    }

    /** Runs one statement on a connection of its own. */
    static void execute(DataSource dataSource, String sql) throws Exception {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    /** Drops every table of a run: Errand's, and Flyway's history table under the same prefix. */
    static void dropTables(DataSource dataSource, String prefix) throws Exception {
        List<String> tables = new ArrayList<>();
        try (Connection c = dataSource.getConnection()) {
            for (String pattern : List.of(prefix.toLowerCase(Locale.ROOT), prefix.toUpperCase(Locale.ROOT))) {
                try (var rows = c.getMetaData().getTables(c.getCatalog(), null, pattern + "%", null)) {
                    while (rows.next()) {
                        // "_" is a wildcard in the pattern: keep only the names that really start with it.
                        String table = rows.getString("TABLE_NAME");
                        if (table.toLowerCase(Locale.ROOT).startsWith(prefix.toLowerCase(Locale.ROOT))) {
                            tables.add(table);
                        }
                    }
                }
            }
        }
        // Referencing tables first would be needed for foreign keys; retry the rest until none is left.
        for (int pass = 0; pass < 5 && !tables.isEmpty(); pass++) {
            List<String> left = new ArrayList<>();
            for (String table : tables) {
                try {
                    execute(dataSource, "DROP TABLE " + table);
                } catch (Exception dependedOn) {
                    left.add(table);
                }
            }
            tables = left;
        }
    }
}
