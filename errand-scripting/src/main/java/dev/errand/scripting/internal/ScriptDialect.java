package dev.errand.scripting.internal;

import dev.errand.config.Names;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Locale;
import javax.sql.DataSource;

/**
 * What the script table's SQL needs to know of each database: its migration folder, the database clock as
 * Errand's task table uses it, how times are read, and how unquoted names are stored.
 */
public enum ScriptDialect {
    /** PostgreSQL: {@code timestamptz}, unquoted names in lower case. */
    POSTGRESQL("postgresql", "CURRENT_TIMESTAMP"),
    /** MariaDB and MySQL: {@code DATETIME(6)} holding UTC, as Errand's own tables. */
    MYSQL("mysql", "UTC_TIMESTAMP(6)"),
    /** H2 2.x: {@code TIMESTAMP WITH TIME ZONE}, unquoted names in upper case. */
    H2("h2", "CURRENT_TIMESTAMP");

    private final String folder;
    private final String now;

    ScriptDialect(String folder, String now) {
        this.folder = folder;
        this.now = now;
    }

    /** The folder of this database's migrations. */
    public String folder() {
        return folder;
    }

    /** SQL for the database's current time, as the task table's {@code created_at} takes it. */
    public String now() {
        return now;
    }

    /** A table name as the database stores it unquoted, for Flyway's history table. */
    public String unquoted(String name) {
        return switch (this) {
            case POSTGRESQL -> name.toLowerCase(Locale.ROOT);
            case H2 -> name.toUpperCase(Locale.ROOT);
            case MYSQL -> name;
        };
    }

    /** Reads a time column. */
    public Instant readInstant(ResultSet row, String column) throws SQLException {
        if (this == MYSQL) {
            LocalDateTime value = row.getObject(column, LocalDateTime.class);
            return value == null ? null : value.toInstant(ZoneOffset.UTC);
        }
        OffsetDateTime value = row.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    /**
     * The dialect of one of {@code dev.errand.ErrandBuilder.dialectNames()}.
     *
     * @throws IllegalArgumentException for any other name
     */
    public static ScriptDialect named(String name) {
        String key = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        return switch (key) {
            case "postgresql" -> POSTGRESQL;
            case "h2" -> H2;
            case "mariadb", "mysql" -> MYSQL;
            default ->
                throw new IllegalArgumentException(
                        "Unknown dialect " + Names.echo(name) + "; use one of postgresql, mariadb, mysql, h2");
        };
    }

    /**
     * Detects the dialect from the JDBC metadata.
     *
     * @throws IllegalStateException if the database is none of PostgreSQL, MariaDB, MySQL, H2, or cannot be reached
     */
    public static ScriptDialect detect(DataSource dataSource) {
        String product;
        String version;
        try (Connection connection = dataSource.getConnection()) {
            DatabaseMetaData metaData = connection.getMetaData();
            product = metaData.getDatabaseProductName();
            version = metaData.getDatabaseProductVersion();
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "Errand scripting cannot read the database's metadata to choose a dialect: " + e.getMessage(), e);
        }
        String lower = product == null ? "" : product.toLowerCase(Locale.ROOT);
        String lowerVersion = version == null ? "" : version.toLowerCase(Locale.ROOT);
        if (lower.contains("postgresql")) {
            return POSTGRESQL;
        }
        if (lower.equals("h2")) {
            return H2;
        }
        if (lower.contains("mariadb") || lower.contains("mysql") || lowerVersion.contains("mariadb")) {
            return MYSQL;
        }
        throw new IllegalStateException("Errand scripting does not support " + product
                + "; it runs on PostgreSQL, MariaDB, MySQL and H2. If the detection is wrong, set the dialect with"
                + " ScriptingOptions.Builder.dialect(...)");
    }
}
