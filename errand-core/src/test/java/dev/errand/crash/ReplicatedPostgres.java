package dev.errand.crash;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A PostgreSQL primary with a synchronous streaming standby, both of the test's own (ports and data directories
 * under /tmp), made with initdb and pg_basebackup and run as the {@code postgres} user, so that a test can kill the
 * primary's postmaster with SIGKILL and promote the standby, as a failover manager such as Patroni would. fsync
 * is off: a killed process loses nothing the operating system holds; every commit waits for the standby
 * ({@code synchronous_commit=on} with the standby named in {@code synchronous_standby_names}).
 */
final class ReplicatedPostgres implements AutoCloseable {

    private final Path bin;
    private final Path dir;
    private final int primaryPort;
    private final int standbyPort;

    ReplicatedPostgres(int primaryPort, int standbyPort) {
        this.bin = findBin();
        this.primaryPort = primaryPort;
        this.standbyPort = standbyPort;
        this.dir = Path.of("/tmp", "errand-failover-" + primaryPort);
    }

    /** Whether this machine can run it: PostgreSQL's binaries, and root to run them as {@code postgres}. */
    boolean available() {
        return bin != null && "root".equals(System.getProperty("user.name"));
    }

    /** A multi-host URL that finds whichever of the two is the primary. */
    String url() {
        return "jdbc:postgresql://127.0.0.1:" + primaryPort + ",127.0.0.1:" + standbyPort
                + "/postgres?targetServerType=primary&connectTimeout=5";
    }

    /** A URL of the standby alone (the primary after promotion). */
    String standbyUrl() {
        return "jdbc:postgresql://127.0.0.1:" + standbyPort + "/postgres";
    }

    /** Creates the primary, its base backup as a standby, starts both, and waits until the standby is synchronous. */
    void start() throws Exception {
        OwnServer.deleteTree(dir);
        Files.createDirectories(dir);
        OwnServer.run(List.of("chown", "postgres:postgres", dir.toString()), 30);
        OwnServer.run(
                asPostgres(
                        bin.resolve("initdb").toString(),
                        "-D",
                        primaryData().toString(),
                        "-U",
                        "postgres",
                        "--auth=trust",
                        "-E",
                        "UTF8",
                        "--no-sync"),
                120);
        Files.writeString(
                primaryData().resolve("postgresql.auto.conf"),
                String.join(
                        "\n",
                        "wal_level = replica",
                        "max_wal_senders = 4",
                        "synchronous_standby_names = 'standby1'",
                        "synchronous_commit = on",
                        ""),
                StandardCharsets.UTF_8,
                StandardOpenOption.APPEND);
        startServer(primaryData(), primaryPort);
        OwnServer.run(
                asPostgres(
                        bin.resolve("pg_basebackup").toString(),
                        "-h",
                        "127.0.0.1",
                        "-p",
                        Integer.toString(primaryPort),
                        "-U",
                        "postgres",
                        "-D",
                        standbyData().toString(),
                        "-R",
                        "-X",
                        "stream",
                        "-c",
                        "fast",
                        "--no-sync"),
                120);
        // The standby names itself, so that the primary's synchronous_standby_names picks it.
        Files.writeString(
                standbyData().resolve("postgresql.auto.conf"),
                "primary_conninfo = 'host=127.0.0.1 port=" + primaryPort
                        + " user=postgres application_name=standby1'\n"
                        // The base backup copied the primary's setting: once promoted, with no standby of its own,
                        // every commit would wait for one for ever.
                        + "synchronous_standby_names = ''\n",
                StandardCharsets.UTF_8,
                StandardOpenOption.APPEND);
        startServer(standbyData(), standbyPort);
        awaitSynchronousStandby(Duration.ofSeconds(60));
    }

    /** Kills the primary's postmaster with SIGKILL, as a dead machine would stop it. */
    void killPrimary() throws Exception {
        String pid = Files.readAllLines(primaryData().resolve("postmaster.pid"))
                .get(0)
                .trim();
        OwnServer.run(List.of("kill", "-9", pid), 10);
    }

    /** Promotes the standby to primary and waits until it accepts writes. */
    void promoteStandby() throws Exception {
        OwnServer.run(
                asPostgres(bin.resolve("pg_ctl").toString(), "-D", standbyData().toString(), "-w", "promote"), 60);
    }

    private void startServer(Path data, int port) throws Exception {
        OwnServer.run(
                asPostgres(
                        bin.resolve("pg_ctl").toString(),
                        "-D",
                        data.toString(),
                        "-l",
                        data.resolveSibling(data.getFileName() + ".log").toString(),
                        "-w",
                        "-t",
                        "60",
                        "-o",
                        "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c max_connections=100"
                                + " -c fsync=off -c full_page_writes=off",
                        "start"),
                90);
    }

    private void awaitSynchronousStandby(Duration patience) throws Exception {
        long deadline = System.nanoTime() + patience.toNanos();
        String url = "jdbc:postgresql://127.0.0.1:" + primaryPort + "/postgres";
        while (System.nanoTime() < deadline) {
            try (Connection c = DriverManager.getConnection(url, "postgres", "");
                    Statement s = c.createStatement();
                    ResultSet row = s.executeQuery("SELECT count(*) FROM pg_stat_replication"
                            + " WHERE application_name = 'standby1' AND sync_state = 'sync'")) {
                row.next();
                if (row.getInt(1) == 1) {
                    return;
                }
            }
            Thread.sleep(100); // waiting for another process (the standby) to connect: nothing to wait on
        }
        throw new IllegalStateException("the standby did not become synchronous in " + patience);
    }

    private Path primaryData() {
        return dir.resolve("primary");
    }

    private Path standbyData() {
        return dir.resolve("standby");
    }

    private List<String> asPostgres(String... command) {
        List<String> full = new ArrayList<>(List.of("runuser", "-u", "postgres", "--"));
        full.addAll(List.of(command));
        return full;
    }

    private static Path findBin() {
        try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            return versions.sorted(Comparator.reverseOrder())
                    .map(v -> v.resolve("bin"))
                    .filter(b -> Files.isExecutable(b.resolve("pg_basebackup")))
                    .findFirst()
                    .orElse(null);
        } catch (java.io.IOException e) {
            return null;
        }
    }

    /** Stops whatever still runs, at once, and deletes both data directories. */
    @Override
    public void close() throws Exception {
        for (Path data : List.of(primaryData(), standbyData())) {
            if (Files.exists(data.resolve("postmaster.pid"))) {
                try {
                    OwnServer.run(
                            asPostgres(
                                    bin.resolve("pg_ctl").toString(),
                                    "-D",
                                    data.toString(),
                                    "-m",
                                    "immediate",
                                    "-w",
                                    "stop"),
                            60);
                } catch (java.io.IOException alreadyDead) {
                    // The killed primary leaves its pid file behind; there is nothing to stop.
                }
            }
        }
        OwnServer.deleteTree(dir);
    }
}
