package dev.errand.crash;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.h2.tools.Server;

/**
 * An in-memory H2 database behind an H2 TCP server on a free loopback port, so that the child JVMs of a crash
 * test share one database with the test. It starts on first use and is dropped by {@link #stop()}.
 */
final class H2TcpDatabase {

    private final String name;
    private final int poolSize;
    private Server server;
    private HikariDataSource pool;
    private String url;

    /**
     * @param name the in-memory database's name, unique per test class
     * @param poolSize the test's own connections
     */
    H2TcpDatabase(String name, int poolSize) {
        this.name = name;
        this.poolSize = poolSize;
    }

    /** The test's pool on the database; starts the server the first time. */
    synchronized DataSource dataSource() {
        if (pool == null) {
            try {
                int port;
                try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                    port = probe.getLocalPort();
                }
                // -ifNotExists: the in-memory database is created by the first connection, which comes over TCP.
                server = Server.createTcpServer("-tcpPort", String.valueOf(port), "-ifNotExists")
                        .start();
                url = "jdbc:h2:tcp://127.0.0.1:" + port + "/mem:" + name + ";DB_CLOSE_DELAY=-1";
            } catch (IOException | SQLException e) {
                throw new IllegalStateException("Could not start an H2 TCP server: " + e.getMessage(), e);
            }
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(url);
            config.setUsername("sa");
            config.setPassword("");
            config.setMaximumPoolSize(poolSize);
            pool = new HikariDataSource(config);
        }
        return pool;
    }

    /** The JDBC URL the child JVMs connect with; starts the server the first time. */
    synchronized String url() {
        dataSource();
        return url;
    }

    /** Drops everything in the database and stops the server; nothing happens if it never started. */
    synchronized void stop() throws SQLException {
        if (pool != null) {
            try (Connection c = pool.getConnection();
                    Statement s = c.createStatement()) {
                s.execute("DROP ALL OBJECTS");
            }
            pool.close();
            server.stop();
            pool = null;
        }
    }
}
