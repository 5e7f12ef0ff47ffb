package dev.errand.testing;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * A real database for tests, reached over a real connection pool. PostgreSQL comes from
 * {@code ERRAND_TEST_PG_URL} (default: the local server's {@code test} database); H2 is in memory.
 */
public enum TestDatabase {

    POSTGRES {
        @Override
        String jdbcUrl() {
            return env("ERRAND_TEST_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test");
        }

        @Override
        String user() {
            return env("ERRAND_TEST_PG_USER", "postgres");
        }
    },

    H2 {
        @Override
        String jdbcUrl() {
            return "jdbc:h2:mem:errand;DB_CLOSE_DELAY=-1";
        }

        @Override
        String user() {
            return "sa";
        }
    };

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

    /** A shared pool to this database. */
    public synchronized DataSource dataSource() {
        if (dataSource == null) {
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(jdbcUrl());
            config.setUsername(user());
            config.setPassword("");
            config.setMaximumPoolSize(40);
            config.setPoolName("errand-test-" + name().toLowerCase());
            dataSource = new HikariDataSource(config);
        }
        return dataSource;
    }

    /** Drops the tables of a test's prefix. */
    public void dropTables(String prefix) {
        try (Connection connection = dataSource().getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + prefix + "task");
            statement.execute("DROP TABLE IF EXISTS " + prefix + "schema_history");
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
