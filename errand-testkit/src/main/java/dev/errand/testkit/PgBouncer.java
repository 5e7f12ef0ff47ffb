package dev.errand.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A PgBouncer of the test's own, on a free loopback port, in front of the CI PostgreSQL (127.0.0.1:5432, database
 * {@code test}, user {@code postgres}, trust): Debian's {@code pgbouncer} package, run as a child process and
 * stopped with the test. As root (CI) it runs as {@code postgres}, since PgBouncer refuses to run as root.
 */
public final class PgBouncer implements AutoCloseable {

    /** PgBouncer's {@code pool_mode}. */
    public enum PoolMode {
        /** A server connection per client session. */
        SESSION,
        /** A server connection per transaction: the mode most deployments use. */
        TRANSACTION
    }

    private static final Path BINARY = Path.of("/usr/sbin/pgbouncer");

    private final Process process;
    private final Path directory;
    private final int port;

    private PgBouncer(Process process, Path directory, int port) {
        this.process = process;
        this.directory = directory;
        this.port = port;
    }

    /** Starts one in {@code mode} and waits until it accepts connections. */
    public static PgBouncer start(PoolMode mode) throws IOException, InterruptedException {
        if (!Files.isExecutable(BINARY)) {
            throw new IllegalStateException("PgBouncer is not installed: install Debian's pgbouncer package"
                    + " (apt-get install pgbouncer; .ci/run does it)");
        }
        int port = freePort();
        Path directory = Files.createTempDirectory("errand-pgbouncer-");
        Files.writeString(directory.resolve("users.txt"), "\"postgres\" \"\"\n", StandardCharsets.UTF_8);
        Files.writeString(
                directory.resolve("pgbouncer.ini"),
                String.join(
                        "\n",
                        "[databases]",
                        "test = host=127.0.0.1 port=5432 dbname=test user=postgres",
                        "[pgbouncer]",
                        "listen_addr = 127.0.0.1",
                        "listen_port = " + port,
                        "unix_socket_dir =",
                        "auth_type = trust",
                        "auth_file = " + directory.resolve("users.txt"),
                        "pool_mode = " + mode.name().toLowerCase(java.util.Locale.ROOT),
                        "max_client_conn = 500",
                        "default_pool_size = 20",
                        // The PostgreSQL driver sends it at start-up; PgBouncer refuses unknown parameters otherwise.
                        "ignore_startup_parameters = extra_float_digits",
                        "logfile = " + directory.resolve("pgbouncer.log"),
                        ""),
                StandardCharsets.UTF_8);
        List<String> command = new ArrayList<>(List.of(BINARY.toString()));
        if ("root".equals(System.getProperty("user.name"))) {
            UserPrincipal postgres =
                    directory.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("postgres");
            for (Path path : List.of(directory, directory.resolve("users.txt"), directory.resolve("pgbouncer.ini"))) {
                Files.setOwner(path, postgres);
            }
            command.addAll(List.of("-u", "postgres"));
        }
        command.add(directory.resolve("pgbouncer.ini").toString());
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(directory.resolve("stdout.log").toFile())
                .start();
        PgBouncer bouncer = new PgBouncer(process, directory, port);
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (!bouncer.accepts()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                String log = bouncer.log();
                bouncer.close();
                throw new IllegalStateException("PgBouncer did not start: " + log);
            }
            Thread.sleep(50); // waiting for a child process to open its port: nothing to wait on but the port
        }
        return bouncer;
    }

    /** A JDBC URL through this PgBouncer to database {@code test}, with {@code parameters} ("a=b&c=d" or ""). */
    public String url(String parameters) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/test" + (parameters.isEmpty() ? "" : "?" + parameters);
    }

    /** The port it listens on. */
    public int port() {
        return port;
    }

    /** What it logged so far. */
    public String log() {
        try {
            Path log = directory.resolve("pgbouncer.log");
            Path out = directory.resolve("stdout.log");
            return (Files.exists(out) ? Files.readString(out) : "") + (Files.exists(log) ? Files.readString(log) : "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private boolean accepts() {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Stops it and waits for it to exit. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
