package dev.errand.store;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Locale;
import javax.sql.DataSource;

/** Finds the dialect of a database from its JDBC metadata. */
public final class Dialects {

    /** What {@link #detect(DataSource)} accepts, for error messages. */
    public static final String SUPPORTED = "PostgreSQL 12+, H2 2.x";

    private Dialects() {}

    /**
     * Detects the dialect.
     *
     * @throws IllegalStateException if the database or its version is not supported, or cannot be
     *     reached
     */
    public static Dialect detect(DataSource dataSource) {
        try (Connection connection = dataSource.getConnection()) {
            DatabaseMetaData metaData = connection.getMetaData();
            return forProduct(metaData.getDatabaseProductName(), metaData.getDatabaseMajorVersion());
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot read the database's metadata to choose a dialect: "
                    + e.getMessage(), e);
        }
    }

    /**
     * Chooses a dialect by product name and major version.
     *
     * @throws IllegalStateException if the pair is not supported
     */
    public static Dialect forProduct(String productName, int majorVersion) {
        String product = productName == null ? "" : productName.toLowerCase(Locale.ROOT);
        if (product.contains("postgresql") && majorVersion >= 12) {
            return new PostgresDialect();
        }
        if (product.equals("h2") && majorVersion >= 2) {
            return new H2Dialect();
        }
        throw new IllegalStateException("Errand does not support " + productName + " " + majorVersion
                + "; supported databases are " + SUPPORTED);
    }
}
