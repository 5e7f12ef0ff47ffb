package dev.errand.cli;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.errand.testkit.TestDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.sql.SQLException;
import java.util.Map;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.h2.tools.Server;

/**
 * A database that the test and the CLI's process both reach: the test suite's PostgreSQL, or an H2 database in
 * memory behind an H2 TCP server in the test's JVM (it lives until the JVM ends, across connections).
 */
enum CliDatabase {
    POSTGRES("postgresql") {
        @Override
        String url() {
            return TestDatabase.POSTGRES.url();
        }

        @Override
        String user() {
            return TestDatabase.POSTGRES.userName();
        }
    },
    H2_TCP("h2") {
        @Override
        String url() {
            return "jdbc:h2:tcp://127.0.0.1:" + h2Port() + "/mem:errand_cli;DB_CLOSE_DELAY=-1";
        }

        @Override
        String user() {
            return "sa";
        }
    };

    private static Server h2;
    private final String dialect;
    private HikariDataSource dataSource;

    CliDatabase(String dialect) {
        this.dialect = dialect;
    }

    abstract String url();

    abstract String user();

    /** The name {@code migrate --dialect} takes. */
    String dialect() {
        return dialect;
    }

    /** The environment that points the CLI at this database. */
    Map<String, String> env(String tablePrefix) {
        return Map.of(
                "ERRAND_URL", url(), "ERRAND_USER", user(), "ERRAND_PASSWORD", "", "ERRAND_TABLE_PREFIX", tablePrefix);
    }

    /** The test's own pool to it. */
    synchronized DataSource dataSource() {
        if (dataSource == null) {
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(url());
            config.setUsername(user());
            config.setPassword("");
            config.setMaximumPoolSize(8);
            config.setPoolName("cli-test-" + name());
            dataSource = new HikariDataSource(config);
        }
        return dataSource;
    }

    /** Drops the tables under a prefix. */
    void dropTables(String tablePrefix) {
        if (this == POSTGRES) {
            TestDatabase.POSTGRES.dropTables(tablePrefix);
        }
        // H2's database is in memory and ends with the test JVM.
    }

    /** The databases selected for this run ({@code errand.test.databases}): PostgreSQL and H2. */
    static Stream<CliDatabase> selected() {
        return Stream.of(values()).filter(database -> TestDatabase.selected()
                .contains(database == POSTGRES ? TestDatabase.POSTGRES : TestDatabase.H2));
    }

    private static synchronized int h2Port() {
        if (h2 == null) {
            try {
                h2 = Server.createTcpServer("-tcpPort", String.valueOf(freePort()), "-ifNotExists")
                        .start();
            } catch (SQLException e) {
                throw new IllegalStateException("Could not start the H2 TCP server: " + e.getMessage(), e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(h2::stop, "h2-tcp-stop"));
        }
        return h2.getPort();
    }

    /** A port nothing listens on now. */
    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
