package dev.errand.examples.plain;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * The demo's database: an embedded H2 file database behind a HikariCP pool, exactly as an
 * application would hand its own pool to Errand, plus the two business tables the handlers write.
 */
final class DemoDatabase {

    private static final String DATABASE_NAME = "errand";

    private DemoDatabase() {}

    /**
     * Deletes the previous run's database files and opens a pool to a new, empty database in
     * {@code directory}. Starting empty keeps the final summary about this run only.
     *
     * @param directory where the H2 files live; created if missing
     * @param poolSize the most connections the pool opens
     * @throws IOException if the old files cannot be deleted (another demo may still be running)
     */
    static HikariDataSource openFresh(Path directory, int poolSize) throws IOException {
        Files.createDirectories(directory);
        for (String suffix : new String[] {".mv.db", ".trace.db", ".lock.db"}) {
            Files.deleteIfExists(directory.resolve(DATABASE_NAME + suffix));
        }
        HikariConfig config = new HikariConfig();
        // AUTO_SERVER=FALSE: only this process opens the file, so no TCP server is started.
        config.setJdbcUrl("jdbc:h2:file:" + directory.toAbsolutePath().resolve(DATABASE_NAME) + ";AUTO_SERVER=FALSE");
        config.setUsername("sa");
        config.setPassword("");
        config.setMaximumPoolSize(poolSize);
        config.setPoolName("errand-demo");
        return new HikariDataSource(config);
    }

    /**
     * Creates the business tables. {@code demo_report} has the report id as primary key, so a
     * report written twice (for example by an attempt whose writes did not roll back) would fail
     * loudly instead of hiding in the numbers.
     */
    static void createDemoTables(DataSource dataSource) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE demo_report ("
                    + " report_id BIGINT PRIMARY KEY,"
                    + " customer VARCHAR(100) NOT NULL,"
                    + " task_id BIGINT NOT NULL,"
                    + " attempt INTEGER NOT NULL,"
                    + " written_at TIMESTAMP WITH TIME ZONE DEFAULT CURRENT_TIMESTAMP NOT NULL)");
            statement.execute("CREATE TABLE demo_failure ("
                    + " task_id BIGINT PRIMARY KEY,"
                    + " kind VARCHAR(200) NOT NULL,"
                    + " attempts INTEGER NOT NULL,"
                    + " error VARCHAR(1000) NOT NULL,"
                    + " recorded_at TIMESTAMP WITH TIME ZONE DEFAULT CURRENT_TIMESTAMP NOT NULL)");
        }
    }

    /**
     * Runs a query that returns one number, such as a {@code COUNT} or {@code SUM}, with plain JDBC.
     *
     * @return the number, or 0 when the query yields SQL {@code NULL} (a {@code SUM} over no rows)
     */
    static long queryLong(DataSource dataSource, String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        }
    }
}
