package dev.errand.crash;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A database server of the chaos run's own, on a port of its own and a data directory under /tmp, so that
 * the run can stop and restart it without touching the shared servers. PostgreSQL runs as the
 * {@code postgres} user (initdb refuses root); MariaDB runs with its own socket and data directory.
 */
abstract class OwnServer implements AutoCloseable {

    final int port;
    final Path dir;

    OwnServer(int port, String name) {
        this.port = port;
        this.dir = Path.of("/tmp", "errand-chaos-" + name + "-" + port);
    }

    /** The JDBC URL of the server's database on {@code port}, which may be a proxy's. */
    abstract String url(int port);

    /** The user the workers connect as. */
    abstract String user();

    /** Creates the data directory and starts the server. */
    abstract void start() throws Exception;

    /** Stops the server: {@code crash} kills it as a power cut would, otherwise a fast shutdown. */
    abstract void stop(boolean crash) throws Exception;

    /** Starts the server again on its existing data. */
    abstract void restart() throws Exception;

    @Override
    public void close() throws Exception {
        try {
            stop(false);
        } finally {
            deleteTree(dir);
        }
    }

    static void run(List<String> command, int timeoutSeconds) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IOException(String.join(" ", command) + " failed: " + new String(output));
        }
    }

    /**
     * {@code preferred} if nothing listens there on the loopback, otherwise a free port the system picks: a fixed
     * port that another process holds would make the server exit at start-up.
     */
    static int freePort(int preferred) throws IOException {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        try (ServerSocket probe = new ServerSocket(preferred, 1, loopback)) {
            return preferred;
        } catch (IOException taken) {
            try (ServerSocket any = new ServerSocket(0, 1, loopback)) {
                return any.getLocalPort();
            }
        }
    }

    /** The last lines of the server's log, for a failure's message. */
    String logTail() {
        try {
            List<String> lines = Files.readAllLines(dir.resolve("log"));
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    /** Whether this machine can run a server of this kind (its binaries are installed). */
    abstract boolean available();

    /** PostgreSQL under /usr/lib/postgresql, as the postgres user. */
    static final class Postgres extends OwnServer {
        private final Path bin;

        Postgres(int port) {
            super(port, "pg");
            this.bin = findBin();
        }

        private static Path findBin() {
            try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
                return versions.sorted(Comparator.reverseOrder())
                        .map(v -> v.resolve("bin"))
                        .filter(b -> Files.isExecutable(b.resolve("pg_ctl")))
                        .findFirst()
                        .orElse(null);
            } catch (IOException e) {
                return null;
            }
        }

        @Override
        boolean available() {
            // initdb refuses root, and only root can run it as the postgres user.
            return bin != null && "root".equals(System.getProperty("user.name"));
        }

        @Override
        String url(int port) {
            return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
        }

        @Override
        String user() {
            return "postgres";
        }

        private List<String> asPostgres(String... command) {
            List<String> full = new ArrayList<>(List.of("runuser", "-u", "postgres", "--"));
            full.addAll(List.of(command));
            return full;
        }

        @Override
        void start() throws Exception {
            deleteTree(dir);
            Files.createDirectories(dir);
            run(List.of("chown", "postgres:postgres", dir.toString()), 30);
            run(
                    asPostgres(
                            bin.resolve("initdb").toString(),
                            "-D",
                            dir.resolve("data").toString(),
                            "-U",
                            "postgres",
                            "--auth=trust",
                            "-E",
                            "UTF8",
                            "--no-sync"),
                    120);
            restart();
        }

        @Override
        void restart() throws Exception {
            try {
                startServer();
            } catch (IOException e) {
                throw new IOException(e.getMessage() + "\nThe server's log ends with:\n" + logTail(), e);
            }
        }

        private void startServer() throws Exception {
            run(
                    asPostgres(
                            bin.resolve("pg_ctl").toString(),
                            "-D",
                            dir.resolve("data").toString(),
                            "-l",
                            dir.resolve("log").toString(),
                            "-w",
                            "-t",
                            "60",
                            "-o",
                            "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c max_connections=200"
                                    // fsync off survives a killed server (the OS keeps the writes); an
                                    // asynchronous commit would not, and would lose committed effects.
                                    + " -c fsync=off -c full_page_writes=off",
                            "start"),
                    90);
        }

        @Override
        void stop(boolean crash) throws Exception {
            if (!Files.exists(dir.resolve("data").resolve("postmaster.pid"))) {
                return;
            }
            run(
                    asPostgres(
                            bin.resolve("pg_ctl").toString(),
                            "-D",
                            dir.resolve("data").toString(),
                            "-m",
                            crash ? "immediate" : "fast",
                            "-w",
                            "stop"),
                    90);
        }
    }

    /** MariaDB with a data directory, socket and port of its own. */
    static final class MariaDb extends OwnServer {
        private Process server;

        MariaDb(int port) {
            super(port, "mariadb");
        }

        @Override
        boolean available() {
            return Files.isExecutable(Path.of("/usr/sbin/mariadbd"))
                    && Files.isExecutable(Path.of("/usr/bin/mariadb-install-db"));
        }

        @Override
        String url(int port) {
            return "jdbc:mariadb://127.0.0.1:" + port + "/chaos";
        }

        @Override
        String user() {
            return "root";
        }

        @Override
        void start() throws Exception {
            deleteTree(dir);
            Files.createDirectories(dir);
            run(
                    List.of(
                            "mariadb-install-db",
                            "--no-defaults",
                            "--datadir=" + dir.resolve("data"),
                            "--user=root",
                            "--auth-root-authentication-method=normal",
                            "--skip-test-db"),
                    180);
            restart();
            // The database the workers use; root has no password on a fresh install.
            run(
                    List.of(
                            "mariadb",
                            "--no-defaults",
                            "--socket=" + dir.resolve("sock"),
                            "-uroot",
                            "-e",
                            "CREATE DATABASE IF NOT EXISTS chaos; CREATE USER IF NOT EXISTS 'root'@'127.0.0.1';"
                                    + " GRANT ALL ON *.* TO 'root'@'127.0.0.1'; FLUSH PRIVILEGES;"),
                    60);
        }

        @Override
        void restart() throws Exception {
            server = new ProcessBuilder(
                            "/usr/sbin/mariadbd",
                            "--no-defaults",
                            "--user=root",
                            "--datadir=" + dir.resolve("data"),
                            "--socket=" + dir.resolve("sock"),
                            "--pid-file=" + dir.resolve("pid"),
                            "--port=" + port,
                            "--bind-address=127.0.0.1",
                            "--max-connections=300",
                            "--innodb-buffer-pool-size=128M",
                            "--innodb-flush-log-at-trx-commit=2",
                            "--skip-log-bin",
                            "--log-error=" + dir.resolve("log"))
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("stdout").toFile())
                    .start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!Files.exists(dir.resolve("sock"))) {
                if (!server.isAlive() || System.nanoTime() > deadline) {
                    throw new IOException("MariaDB did not start; see " + dir.resolve("log"));
                }
                Thread.sleep(100);
            }
        }

        @Override
        void stop(boolean crash) throws Exception {
            if (server == null || !server.isAlive()) {
                return;
            }
            if (crash) {
                server.destroyForcibly();
            } else {
                server.destroy();
            }
            if (!server.waitFor(60, TimeUnit.SECONDS)) {
                server.destroyForcibly();
                server.waitFor(10, TimeUnit.SECONDS);
            }
            Files.deleteIfExists(dir.resolve("sock"));
        }
    }
}
