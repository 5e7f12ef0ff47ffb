package dev.errand.spring.testing;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The shared PostgreSQL test database. Other test runs use it at the same time, so every test gets its own
 * table prefix and drops its tables afterwards; a shutdown hook drops whatever a crashed test left.
 */
public final class TestDatabase {

    public static final String URL = System.getProperty("errand.test.postgres.url",
            "jdbc:postgresql://127.0.0.1:5432/test");
    public static final String USER = System.getProperty("errand.test.postgres.user", "postgres");
    public static final String PASSWORD = System.getProperty("errand.test.postgres.password", "");

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Set<String> PREFIXES = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> PREFIXES.forEach(TestDatabase::dropTablesQuietly),
                "errand-test-table-cleanup"));
    }

    private TestDatabase() {}

    /** A fresh prefix such as {@code t3f9a01c2_}, remembered for the shutdown hook. */
    public static String newPrefix() {
        byte[] bytes = new byte[4];
        RANDOM.nextBytes(bytes);
        String prefix = "t" + HexFormat.of().formatHex(bytes) + "_";
        PREFIXES.add(prefix);
        return prefix;
    }

    /** The Spring properties that point a context at the test database with {@code prefix}. */
    public static String[] properties(String prefix) {
        return new String[] {
            "spring.datasource.url=" + URL,
            "spring.datasource.username=" + USER,
            "spring.datasource.password=" + PASSWORD,
            "spring.datasource.hikari.maximum-pool-size=12",
            "errand.table-prefix=" + prefix
        };
    }

    /** Drops every table whose name starts with {@code prefix}: Errand's, and those a test made with it. */
    public static void dropTables(String prefix) {
        try (Connection c = DriverManager.getConnection(URL, USER, PASSWORD)) {
            List<String> tables = new ArrayList<>();
            try (PreparedStatement s = c.prepareStatement("SELECT table_name FROM information_schema.tables"
                    + " WHERE table_schema = current_schema() AND table_name LIKE ?")) {
                s.setString(1, prefix.toLowerCase().replace("_", "\\_") + "%");
                try (ResultSet row = s.executeQuery()) {
                    while (row.next()) {
                        tables.add(row.getString(1));
                    }
                }
            }
            try (Statement s = c.createStatement()) {
                for (String table : tables) {
                    s.execute("DROP TABLE IF EXISTS \"" + table + "\" CASCADE");
                }
            }
            PREFIXES.remove(prefix);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not drop the test tables " + prefix + "*: " + e.getMessage(), e);
        }
    }

    /** Counts the tables whose name starts with {@code prefix}. */
    public static int countTables(String prefix) {
        try (Connection c = DriverManager.getConnection(URL, USER, PASSWORD);
                PreparedStatement s = c.prepareStatement("SELECT COUNT(*) FROM information_schema.tables"
                        + " WHERE table_schema = current_schema() AND table_name LIKE ?")) {
            s.setString(1, prefix.toLowerCase().replace("_", "\\_") + "%");
            try (ResultSet row = s.executeQuery()) {
                row.next();
                return row.getInt(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void dropTablesQuietly(String prefix) {
        try {
            dropTables(prefix);
        } catch (RuntimeException ignored) {
            // Best effort at JVM exit.
        }
    }
}
