package dev.errand.crash;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.errand.Errand;
import dev.errand.retry.RetryPolicy;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import java.sql.Connection;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A worker JVM of the chaos run ({@link ChaosRun}): one Errand node with a transactional kind, whose
 * effect row is written on the attempt's own transaction, the same kind with group commit (up to {@value
 * #GROUP} tasks per transaction), and a non-transactional kind, which writes one row per run on a connection of
 * its own. The harness kills, stops and restarts it, and cuts its
 * database from under it.
 *
 * <p>Arguments: {@code <jdbcUrl> <user> <tablePrefix> <nodeId> [extras]}. With {@code extras} (the run's scale
 * mode) it also works batches and workflows ({@link WorkflowWorkerMain}'s kinds) and declares a schedule that fires
 * every second ({@link ChaosExtras}). It exits by itself when its stdin closes.
 */
public final class ChaosWorkerMain {

    /** The transactional kind. */
    static final String TX = "chaos-tx";
    /** The transactional kind with group commit. */
    static final String GROUPED = "chaos-tx-group";
    /** The group size of {@link #GROUPED}. */
    static final int GROUP = 20;
    /** The non-transactional kind. */
    static final String PLAIN = "chaos-plain";
    /** The lease of both kinds, short so that the run sees many rescues. */
    static final Duration LEASE = Duration.ofSeconds(4);

    private ChaosWorkerMain() {}

    /** Starts the worker; see the class comment for the arguments. */
    public static void main(String[] args) throws Exception {
        if (args.length != 4 && !(args.length == 5 && args[4].equals("extras"))) {
            System.err.println("usage: ChaosWorkerMain <jdbcUrl> <user> <tablePrefix> <nodeId> [extras]");
            System.exit(CrashWorkerMain.USAGE_EXIT_STATUS);
        }
        CrashWorkerMain.exitWhenStdinCloses();
        String prefix = args[2];
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(args[0]);
        config.setUsername(args[1]);
        config.setPassword("");
        config.setMaximumPoolSize(16);
        config.setConnectionTimeout(2_000);
        config.setValidationTimeout(1_000);
        config.setInitializationFailTimeout(-1);
        config.setPoolName("chaos-" + args[3]);
        HikariDataSource dataSource = new HikariDataSource(config);

        Errand errand = null;
        // Started during a database restart, the node cannot be built yet: an application would retry too.
        while (errand == null) {
            try {
                errand = build(dataSource, prefix, args[3], args.length == 5);
            } catch (IllegalStateException databaseDown) {
                System.out.println("database not reachable yet; retrying: " + databaseDown.getMessage());
                Thread.sleep(500);
            }
        }
        errand.start();
        System.out.println(CrashWorkerMain.READY);
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE); // the point: the child serves until it is killed
    }

    private static Errand build(HikariDataSource dataSource, String prefix, String nodeId, boolean extras) {
        dev.errand.ErrandBuilder builder = Errand.builder(dataSource)
                .tablePrefix(prefix)
                .nodeId(nodeId)
                .migrationsEnabled(false)
                .queue("default", 8)
                .pollInterval(Duration.ofMillis(100))
                .heartbeatInterval(Duration.ofMillis(500))
                .leaseDuration(LEASE)
                .rescueInterval(Duration.ofSeconds(1))
                .succeededRetention(Duration.ofDays(1))
                .register(TaskDefinition.builder(TX, Integer.class, (payload, context) -> {
                            CrashWorkerMain.insertEffect(context.connection(), prefix, context.taskId(), "tx");
                            work();
                        })
                        .maxAttempts(1000)
                        .retryPolicy(RetryPolicy.fixed(Duration.ofMillis(200)))
                        .build())
                .register(TaskDefinition.builder(GROUPED, Integer.class, (payload, context) -> {
                            CrashWorkerMain.insertEffect(context.connection(), prefix, context.taskId(), "tx");
                            work();
                        })
                        .groupCommit(GROUP)
                        .maxAttempts(1000)
                        .retryPolicy(RetryPolicy.fixed(Duration.ofMillis(200)))
                        .build())
                .register(TaskDefinition.builder(PLAIN, Integer.class, (payload, context) -> {
                            try (Connection own = dataSource.getConnection()) {
                                own.setAutoCommit(true);
                                CrashWorkerMain.insertEffect(own, prefix, context.taskId(), "run");
                            }
                            work();
                        })
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .maxAttempts(1000)
                        .retryPolicy(RetryPolicy.fixed(Duration.ofMillis(200)))
                        .build());
        if (extras) {
            WorkflowWorkerMain.kinds(builder, dataSource, prefix)
                    .register(TaskDefinition.builder(
                                    ChaosExtras.TICK,
                                    Void.class,
                                    (none, context) -> CrashWorkerMain.insertEffect(
                                            context.connection(), prefix, context.taskId(), "tick"))
                            .maxAttempts(1000)
                            .build())
                    .schedule(dev.errand.schedule.Schedule.every(
                                    ChaosExtras.TICK, ChaosExtras.TICK, Duration.ofSeconds(1))
                            .build());
        }
        return builder.build();
    }

    private static void work() throws InterruptedException {
        // slow on purpose: a little work per task, so that faults land mid-run
        Thread.sleep(ThreadLocalRandom.current().nextInt(1, 15));
    }
}
