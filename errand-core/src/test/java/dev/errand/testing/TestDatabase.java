package dev.errand.testing;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;

/**
 * A real database for tests, reached over a real connection pool. PostgreSQL and MariaDB come from
 * {@code ERRAND_TEST_PG_URL} and {@code ERRAND_TEST_MARIADB_URL} (default: the local servers'
 * {@code test} databases); H2 is in memory.
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
    public java.time.Instant now() throws SQLException {
        try (Connection c = dataSource().getConnection(); Statement s = c.createStatement();
                java.sql.ResultSet rows = s.executeQuery("SELECT " + nowSql)) {
            rows.next();
            return this == MARIADB
                    ? rows.getObject(1, java.time.LocalDateTime.class).toInstant(java.time.ZoneOffset.UTC)
                    : rows.getObject(1, java.time.OffsetDateTime.class).toInstant();
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
     * {@code errand.test.databases} (for example {@code H2,H2_UNPOOLED} for the run on another H2 version).
     */
    public static List<TestDatabase> selected() {
        String names = System.getProperty("errand.test.databases", "").trim();
        if (names.isEmpty()) {
            return List.of(values());
        }
        List<TestDatabase> chosen = new ArrayList<>();
        for (String name : names.split(",")) {
            chosen.add(valueOf(name.trim()));
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
        if (this == H2) {
            // Connections come and go, as in an application: the session that ran the migrations closes.
            config.setMinimumIdle(0);
            config.setIdleTimeout(10_000);
            config.setMaxLifetime(30_000);
        }
        return new HikariDataSource(config);
    }

    /** Drops the tables of a test's prefix. */
    public void dropTables(String prefix) {
        try (Connection connection = dataSource().getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + prefix + "task");
            statement.execute("DROP TABLE IF EXISTS " + prefix + "schema_history");
            statement.execute("DROP TABLE IF EXISTS " + prefix + "cancel_request");
            statement.execute("DROP TABLE IF EXISTS " + prefix + "effect");
        } catch (SQLException e) {
            throw new IllegalStateException("Could not drop test tables of " + prefix, e);
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
