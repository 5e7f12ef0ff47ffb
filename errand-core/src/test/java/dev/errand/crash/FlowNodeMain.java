package dev.errand.crash;

import dev.errand.Errand;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import javax.sql.DataSource;

/**
 * A node for {@link FlowCrashTest}, in a JVM of its own: kind {@code limited} has a concurrency limit of 3,
 * kind {@code keyed} a per-key limit of 1 (its payload is its key). Each attempt writes its span to
 * {@code <prefix>span}: its start before the work and its end after; an attempt killed with its JVM keeps a
 * null end. Times are microseconds of the wall clock, which every JVM of the test shares (one machine).
 * Arguments: {@code <jdbcUrl> <user> <tablePrefix> <nodeId> <workMillis>}. It exits when its stdin closes.
 */
public final class FlowNodeMain {

    static final String READY = "READY";
    static final String RAN = "RAN";

    private FlowNodeMain() {}

    /** Starts the node. */
    public static void main(String[] args) throws Exception {
        CrashWorkerMain.exitWhenStdinCloses();
        DataSource pool = CrashWorkerMain.pool(args[0], args[1], 12);
        String prefix = args[2];
        String nodeId = args[3];
        long workMillis = Long.parseLong(args[4]);
        Errand errand = Errand.builder(pool)
                .tablePrefix(prefix)
                .nodeId(nodeId)
                .queue("default", 4)
                .pollInterval(Duration.ofMillis(50))
                .heartbeatInterval(Duration.ofMillis(200))
                .deadNodeTimeout(Duration.ofSeconds(1))
                .leaseDuration(Duration.ofSeconds(60))
                .register(TaskDefinition.builder(
                                "limited",
                                String.class,
                                (key, ctx) -> work(pool, prefix, nodeId, ctx.taskId(), ctx.attempt(), null, workMillis))
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .concurrencyLimit(3)
                        .build())
                .register(TaskDefinition.builder(
                                "keyed",
                                String.class,
                                (key, ctx) -> work(pool, prefix, nodeId, ctx.taskId(), ctx.attempt(), key, workMillis))
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .concurrencyLimitPerKey(1)
                        .build())
                .build();
        errand.start();
        System.out.println(READY);
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE); // the child lives until killed or its stdin closes
    }

    private static void work(
            DataSource pool, String prefix, String nodeId, long taskId, int attempt, String key, long workMillis)
            throws Exception {
        try (Connection c = pool.getConnection();
                PreparedStatement s = c.prepareStatement("INSERT INTO " + prefix
                        + "span (task_id, attempt, node_id, limit_key, started) VALUES (?, ?, ?, ?, ?)")) {
            s.setLong(1, taskId);
            s.setInt(2, attempt);
            s.setString(3, nodeId);
            s.setString(4, key);
            s.setLong(5, micros());
            s.executeUpdate();
        }
        System.out.println(RAN + " " + taskId);
        System.out.flush();
        Thread.sleep(workMillis); // the task's work
        try (Connection c = pool.getConnection();
                PreparedStatement s = c.prepareStatement(
                        "UPDATE " + prefix + "span SET ended = ? WHERE task_id = ? AND attempt = ?")) {
            s.setLong(1, micros());
            s.setLong(2, taskId);
            s.setInt(3, attempt);
            s.executeUpdate();
        }
    }

    static long micros() {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }
}
