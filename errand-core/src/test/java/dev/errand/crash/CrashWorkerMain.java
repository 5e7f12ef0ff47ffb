package dev.errand.crash;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.errand.Errand;
import dev.errand.ErrandBuilder;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import java.io.IOException;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * The worker JVM that {@link CrashRecoveryTest} kills with SIGKILL. It exists so that a crash is a real
 * process death — sockets closed by the kernel, no shutdown hook, no {@code finally} — and not a
 * simulation inside the test's own JVM.
 *
 * <p>It runs one Errand node whose handler writes an effect row, prints {@value #IN_HANDLER} with the
 * task id and attempt, and then sleeps until it is killed. In {@code TRANSACTIONAL} mode the effect is
 * written on {@code context.connection()}, so it is uncommitted when the process dies; in
 * {@code NON_TRANSACTIONAL} mode it is written on an autocommit connection of its own, so it survives.
 *
 * <p>Arguments: {@code <jdbcUrl> <user> <tablePrefix> <TRANSACTIONAL|NON_TRANSACTIONAL> <kind> <nodeId>}.
 *
 * <p>The process exits by itself (status {@value #ORPHAN_EXIT_STATUS}) when its stdin closes, so a
 * child never outlives a parent test JVM that died without killing it.
 */
public final class CrashWorkerMain {

    /** Printed once the node has started. */
    static final String READY = "READY";
    /** Printed, followed by {@code <taskId> <attempt>}, once the handler has written its effect. */
    static final String IN_HANDLER = "IN_HANDLER";
    /** Exit status when the parent went away (stdin reached end of file). */
    static final int ORPHAN_EXIT_STATUS = 3;
    /** Exit status for bad arguments. */
    static final int USAGE_EXIT_STATUS = 2;

    private CrashWorkerMain() {}

    /** Starts the worker; see the class comment for the arguments. */
    public static void main(String[] args) throws Exception {
        if (args.length != 6) {
            System.err.println("usage: CrashWorkerMain <jdbcUrl> <user> <tablePrefix>"
                    + " <TRANSACTIONAL|NON_TRANSACTIONAL> <kind> <nodeId>");
            System.exit(USAGE_EXIT_STATUS);
        }
        exitWhenStdinCloses();
        String url = args[0];
        String user = args[1];
        String prefix = args[2];
        ExecutionMode mode = ExecutionMode.valueOf(args[3]);
        String kind = args[4];
        String nodeId = args[5];

        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword("");
        config.setMaximumPoolSize(8);
        config.setPoolName("crash-child");
        HikariDataSource dataSource = new HikariDataSource(config);

        Errand errand = Errand.builder(dataSource)
                .tablePrefix(prefix)
                .nodeId(nodeId)
                .queue("default", 1)
                .pollInterval(Duration.ofMillis(50))
                .heartbeatInterval(Duration.ofMillis(200))
                .leaseDuration(Duration.ofSeconds(2))
                // This node only works and dies; rescuing is the other node's job.
                .rescueInterval(Duration.ofHours(1))
                .register(TaskDefinition.builder(kind, Integer.class, (payload, context) -> {
                            String note = note(nodeId, context.attempt());
                            if (mode == ExecutionMode.TRANSACTIONAL) {
                                insertEffect(context.connection(), prefix, context.taskId(), note);
                            } else {
                                try (Connection own = dataSource.getConnection()) {
                                    own.setAutoCommit(true);
                                    insertEffect(own, prefix, context.taskId(), note);
                                }
                            }
                            System.out.println(IN_HANDLER + " " + context.taskId() + " " + context.attempt());
                            System.out.flush();
                            sleepForever();
                        })
                        .mode(mode)
                        .maxAttempts(5)
                        .build())
                .build();
        errand.start();
        System.out.println(READY);
        System.out.flush();
        sleepForever();
    }

    /** The effect note a handler writes: which node ran which attempt. */
    static String note(String nodeId, int attempt) {
        return nodeId + " attempt=" + attempt;
    }

    /** A child's own pool on the test database (no password), {@code size} connections at most. */
    static HikariDataSource pool(String url, String user, int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword("");
        config.setMaximumPoolSize(size);
        return new HikariDataSource(config);
    }

    /** Inserts one row into {@code <prefix>effect}, the table that {@code ErrandTestSupport} creates. */
    static void insertEffect(Connection connection, String prefix, long taskId, String note) throws SQLException {
        try (PreparedStatement insert =
                connection.prepareStatement("INSERT INTO " + prefix + "effect (task_id, note) VALUES (?, ?)")) {
            insert.setLong(1, taskId);
            insert.setString(2, note);
            insert.executeUpdate();
        }
    }

    /**
     * The settings the worker children of the workflow and process crash tests share: fast polls and heartbeats,
     * 2 s leases, and no rescue of their own (they only work and die; the test's own node rescues).
     */
    static ErrandBuilder workerBuilder(DataSource dataSource, String prefix, String nodeId) {
        return Errand.builder(dataSource)
                .tablePrefix(prefix)
                .nodeId(nodeId)
                .pollInterval(Duration.ofMillis(50))
                .heartbeatInterval(Duration.ofMillis(200))
                .leaseDuration(Duration.ofSeconds(2))
                .rescueInterval(Duration.ofHours(1));
    }

    /** Starts a worker child's node, prints {@code ready}, and waits to be killed. */
    static void runUntilKilled(Errand errand, String ready) throws InterruptedException {
        errand.start();
        System.out.println(ready);
        System.out.flush();
        while (true) {
            Thread.sleep(Long.MAX_VALUE); // the point: the child serves until it is killed
        }
    }

    static void exitWhenStdinCloses() {
        Thread watcher = new Thread(
                () -> {
                    try {
                        InputStream in = System.in;
                        byte[] buffer = new byte[256];
                        while (in.read(buffer) != -1) {
                            // The parent never writes; only end of file matters.
                        }
                    } catch (IOException e) {
                        // A broken pipe means the parent is gone as well.
                    }
                    System.err.println("crash-child: stdin closed, the parent is gone; exiting");
                    System.exit(ORPHAN_EXIT_STATUS);
                },
                "crash-child-stdin-watch");
        watcher.setDaemon(true);
        watcher.start();
    }

    private static void sleepForever() throws InterruptedException {
        while (true) {
            Thread.sleep(Long.MAX_VALUE); // the point: the child stays busy until it is killed
        }
    }
}
