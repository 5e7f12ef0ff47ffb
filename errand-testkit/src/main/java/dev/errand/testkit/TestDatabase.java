package dev.errand.testkit;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;

/**
 * A real database for Errand's tests, reached over a real connection pool. PostgreSQL and MariaDB come
 * from {@code ERRAND_TEST_PG_URL} and {@code ERRAND_TEST_MARIADB_URL} (default: the local servers'
 * {@code test} databases); H2 is in memory. The servers are shared with other test runs, so every test
 * works under a table prefix of its own ({@link #newPrefix()}) and drops its tables afterwards
 * ({@link #dropTables(String)}); a shutdown hook drops what a failed test left.
 */
public enum TestDatabase {
    POSTGRES("PostgreSQL", "CURRENT_TIMESTAMP") {
        @Override
        String jdbcUrl() {
            return env("ERRAND_TEST_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test");
        }

        @Override
        String user() {
            return env("ERRAND_TEST_PG_USER", "postgres");
        }
    },

    MARIADB("MariaDB", "UTC_TIMESTAMP(6)") {
        @Override
        String jdbcUrl() {
            return env("ERRAND_TEST_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/test");
        }

        @Override
        String user() {
            return env("ERRAND_TEST_MARIADB_USER", "root");
        }
    },

    /** H2 in memory behind a pool whose connections come and go, as Spring Boot's Hikari pool does. */
    H2("H2", "CURRENT_TIMESTAMP") {
        @Override
        String jdbcUrl() {
            return "jdbc:h2:mem:errand;DB_CLOSE_DELAY=-1";
        }

        @Override
        String user() {
            return "sa";
        }
    },

    /** H2 in memory without a pool: every {@code getConnection()} opens a new session. */
    H2_UNPOOLED("H2 unpooled", "CURRENT_TIMESTAMP") {
        @Override
        String jdbcUrl() {
            return "jdbc:h2:mem:errand_unpooled;DB_CLOSE_DELAY=-1";
        }

        @Override
        String user() {
            return "sa";
        }

        @Override
        public synchronized DataSource dataSource() {
            JdbcDataSource unpooled = new JdbcDataSource();
            unpooled.setURL(jdbcUrl());
            unpooled.setUser(user());
            return unpooled;
        }
    };

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Set<String> PREFIXES = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(TestDatabase::dropLeftovers, "errand-test-table-cleanup"));
    }

    private final String displayName;
    private final String nowSql;

    TestDatabase(String displayName, String nowSql) {
        this.displayName = displayName;
        this.nowSql = nowSql;
    }

    /** A name for test reports. */
    public String displayName() {
        return displayName;
    }

    /** SQL for the database's current time as Errand compares it (UTC on MariaDB). */
    public String nowSql() {
        return nowSql;
    }

    /** The database's current time. */
    public Instant now() throws SQLException {
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement();
                ResultSet rows = s.executeQuery("SELECT " + nowSql)) {
            rows.next();
            return this == MARIADB
                    ? rows.getObject(1, LocalDateTime.class).toInstant(ZoneOffset.UTC)
                    : rows.getObject(1, OffsetDateTime.class).toInstant();
        }
    }

    private volatile HikariDataSource dataSource;

    abstract String jdbcUrl();

    abstract String user();

    /** The public JDBC URL, for child processes. */
    public String url() {
        return jdbcUrl();
    }

    /** The user name, for child processes. */
    public String userName() {
        return user();
    }

    /** Whether this is an H2 database, pooled or not. */
    public boolean isH2() {
        return this == H2 || this == H2_UNPOOLED;
    }

    /**
     * The databases the suite runs on: all of them, or those named in the system property
     * {@code errand.test.databases} (for example {@code H2,H2_UNPOOLED} for the run on another H2 version), in
     * any case.
     */
    public static List<TestDatabase> selected() {
        String names = System.getProperty("errand.test.databases", "").trim();
        if (names.isEmpty()) {
            return List.of(values());
        }
        List<TestDatabase> chosen = new ArrayList<>();
        for (String name : names.split(",")) {
            String upper = name.trim().toUpperCase(java.util.Locale.ROOT);
            try {
                chosen.add(valueOf(upper));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "errand.test.databases names '" + name.trim()
                                + "', which is not a test database; use a comma-separated list of "
                                + java.util.Arrays.toString(values()),
                        e);
            }
        }
        return chosen;
    }

    /** A shared pool to this database. */
    public synchronized DataSource dataSource() {
        if (dataSource == null) {
            dataSource = newDataSource();
        }
        return dataSource;
    }

    /** A new pool of its own; the caller closes it. */
    public HikariDataSource newDataSource() {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl());
        config.setUsername(user());
        config.setPassword("");
        config.setMaximumPoolSize(40);
        config.setPoolName("errand-test-" + name().toLowerCase());
        if (this != H2 && this != H2_UNPOOLED) {
            // Idle connections go after 10 s: a test JVM keeps a pool per server for its whole run, and the
            // server's connection limit (100 on a default PostgreSQL) is shared with child JVMs and other runs.
            config.setMinimumIdle(4);
            config.setIdleTimeout(10_000);
        }
        if (this == H2) {
            // Connections come and go, as in an application: the session that ran the migrations closes.
            config.setMinimumIdle(0);
            config.setIdleTimeout(10_000);
            config.setMaxLifetime(30_000);
        }
        return new HikariDataSource(config);
    }

    /** A fresh table prefix such as {@code t3f9a01c2_}, whose tables the shutdown hook drops if a test does not. */
    public static String newPrefix() {
        byte[] bytes = new byte[4];
        RANDOM.nextBytes(bytes);
        String prefix = "t" + HexFormat.of().formatHex(bytes) + "_";
        PREFIXES.add(prefix);
        return prefix;
    }

    /** The Spring Boot properties that point a context at this database, with Errand's tables under {@code prefix}. */
    public String[] springProperties(String prefix) {
        return new String[] {
            "spring.datasource.url=" + jdbcUrl(),
            "spring.datasource.username=" + user(),
            "spring.datasource.password=",
            "spring.datasource.hikari.maximum-pool-size=12",
            "errand.table-prefix=" + prefix
        };
    }

    /** Drops every table whose name starts with {@code prefix}: Errand's, and those a test made with it. */
    public void dropTables(String prefix) {
        try (Connection connection = dataSource().getConnection();
                Statement statement = connection.createStatement()) {
            for (String table : tables(connection, prefix)) {
                statement.execute("DROP TABLE IF EXISTS " + table);
            }
            PREFIXES.remove(prefix);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not drop the test tables " + prefix + "*: " + e.getMessage(), e);
        }
    }

    /** How many tables have a name that starts with {@code prefix}. */
    public int countTables(String prefix) {
        try (Connection connection = dataSource().getConnection()) {
            return tables(connection, prefix).size();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> tables(Connection connection, String prefix) throws SQLException {
        DatabaseMetaData metaData = connection.getMetaData();
        String escape = metaData.getSearchStringEscape();
        List<String> tables = new ArrayList<>();
        // Unquoted names are stored lower case (PostgreSQL, MariaDB) or upper case (H2).
        for (String casing : Set.of(prefix.toLowerCase(), prefix.toUpperCase())) {
            String pattern = casing.replace("_", escape + "_") + "%";
            try (ResultSet rows = metaData.getTables(connection.getCatalog(), null, pattern, new String[] {"TABLE"})) {
                while (rows.next()) {
                    String name = rows.getString("TABLE_NAME");
                    if (!tables.contains(name)) {
                        tables.add(name);
                    }
                }
            }
        }
        return tables;
    }

    private static void dropLeftovers() {
        for (String prefix : PREFIXES) {
            for (TestDatabase database : values()) {
                try {
                    if (!database.isH2() && database.dataSource != null) {
                        database.dropTables(prefix);
                    }
                } catch (RuntimeException bestEffort) {
                    // At JVM exit, a database that is gone has nothing left to drop.
                }
            }
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
