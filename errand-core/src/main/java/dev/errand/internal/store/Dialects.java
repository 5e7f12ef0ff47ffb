package dev.errand.internal.store;

import dev.errand.config.Names;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/** Finds the dialect of a database from its JDBC metadata. */
public final class Dialects {

    /** What {@link #detect(DataSource)} accepts, for error messages. */
    public static final String SUPPORTED = "PostgreSQL 12+, MariaDB 10.6+, MySQL 8.0.16+, H2 2.x";

    /** The names {@link #named(String)} accepts. */
    public static final List<String> NAMES = List.of("postgresql", "mariadb", "mysql", "h2");

    private static final Pattern MARIADB_VERSION = Pattern.compile("(\\d+)\\.(\\d+)\\.\\d+-mariadb");

    private Dialects() {}

    private static int patch(String version) {
        Matcher m = Pattern.compile("^\\d+\\.\\d+\\.(\\d+)").matcher(version);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    /**
     * Detects the dialect.
     *
     * @throws IllegalStateException if the database or its version is not supported, or cannot be
     *     reached
     */
    public static Dialect detect(DataSource dataSource) {
        try (Connection connection = dataSource.getConnection()) {
            DatabaseMetaData metaData = connection.getMetaData();
            return forProduct(
                    metaData.getDatabaseProductName(),
                    metaData.getDatabaseProductVersion(),
                    metaData.getDatabaseMajorVersion(),
                    metaData.getDatabaseMinorVersion());
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "Cannot read the database's metadata to choose a dialect: " + e.getMessage(), e);
        }
    }

    /**
     * Chooses a dialect from what JDBC metadata reports.
     *
     * @param productName {@code DatabaseMetaData.getDatabaseProductName()}
     * @param productVersion {@code DatabaseMetaData.getDatabaseProductVersion()}, which tells MariaDB
     *     apart when a MySQL driver reports it
     * @param major the major version
     * @param minor the minor version
     * @throws IllegalStateException if the database or its version is not supported
     */
    public static Dialect forProduct(String productName, String productVersion, int major, int minor) {
        String product = productName == null ? "" : productName.toLowerCase(Locale.ROOT);
        String version = productVersion == null ? "" : productVersion.toLowerCase(Locale.ROOT);
        if (product.contains("postgresql") && major >= 12) {
            return new PostgresDialect();
        }
        if (product.equals("h2") && major >= 2) {
            return new H2Dialect();
        }
        boolean mariaDb = product.contains("mariadb") || version.contains("mariadb");
        if (mariaDb) {
            // A MySQL driver reports MariaDB 10.x as "5.5.5-10.11.19-MariaDB": the real version follows.
            Matcher real = MARIADB_VERSION.matcher(version);
            if (real.find()) {
                major = Integer.parseInt(real.group(1));
                minor = Integer.parseInt(real.group(2));
            }
            if (major > 10 || (major == 10 && minor >= 6)) {
                return new MariaDbDialect();
            }
        } else if (product.contains("mysql") && (major > 8 || (major == 8 && (minor > 0 || patch(version) >= 16)))) {
            // 8.0.16: CHECK constraints are enforced; 8.0.13: expression defaults, which the schema uses.
            return new MariaDbDialect();
        }
        throw new IllegalStateException("Errand does not support " + productName + " " + major + "." + minor
                + "; supported databases are " + SUPPORTED
                + ". If the detection is wrong, set the dialect explicitly with ErrandBuilder.dialect(...)");
    }

    /**
     * Chooses a dialect by name, for {@code ErrandBuilder.dialect(String)}.
     *
     * @throws IllegalArgumentException if the name is none of postgresql, h2, mariadb, mysql
     */
    public static Dialect named(String name) {
        // Each name of NAMES has a case here.
        String key = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        return switch (key) {
            case "postgresql" -> new PostgresDialect();
            case "h2" -> new H2Dialect();
            case "mariadb", "mysql" -> new MariaDbDialect();
            default ->
                throw new IllegalArgumentException(
                        "Unknown dialect " + Names.echo(name) + "; use one of postgresql, mariadb, mysql, h2");
        };
    }
}
