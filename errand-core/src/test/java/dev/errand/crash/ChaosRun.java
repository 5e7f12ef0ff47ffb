package dev.errand.crash;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.errand.Errand;
import dev.errand.chaos.TcpProxy;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.TaskState;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The chaos run: worker JVMs ({@link ChaosWorkerMain}) against a database server of the run's own, reached
 * through a {@link TcpProxy}, while faults are injected on a schedule until every task is terminal: SIGKILL
 * of a worker (restarted after a random delay), a restart of the server (some as a crash), every connection
 * cut at once, a network partition longer than the lease, and a SIGSTOP longer than the lease. Then it
 * checks that nothing was lost or applied twice. {@link #main} runs the full version; {@code ChaosRunTest}
 * the short one.
 */
public final class ChaosRun {

    /** What to run. */
    record Plan(String database, int tasks, int workers, Duration faultEvery, int minimumFaults, long seed) {}

    /** What a run did and found. */
    record Report(
            String database,
            int tasks,
            long seconds,
            int kills,
            int restarts,
            int cuts,
            int partitions,
            int stops,
            long lost,
            long duplicates,
            long failed,
            long uncountedRuns,
            long interruptions,
            List<String> errorLines) {

        boolean passed() {
            return lost == 0 && duplicates == 0 && failed == 0 && uncountedRuns == 0 && errorLines.isEmpty();
        }

        @Override
        public String toString() {
            return "chaos run on " + database + ": " + tasks + " tasks in " + seconds + " s; faults: " + kills
                    + " SIGKILLs, " + restarts + " database restarts, " + cuts + " connection cuts, " + partitions
                    + " partitions, " + stops + " SIGSTOPs; lost " + lost + ", duplicate transactional effects "
                    + duplicates + ", failed " + failed + ", non-transactional runs not counted " + uncountedRuns
                    + ", attempts given back as interruptions " + interruptions + ", engine ERROR lines "
                    + errorLines.size();
        }
    }

    private static final String PREFIX = "chaos_";

    /** The faults the run injects. */
    private enum Fault {
        KILL,
        RESTART,
        CUT,
        STOP,
        PARTITION
    }

    private static final Fault[] SCHEDULE = {
        Fault.KILL,
        Fault.RESTART,
        Fault.CUT,
        Fault.STOP,
        Fault.PARTITION,
        Fault.KILL,
        Fault.CUT,
        Fault.KILL,
        Fault.RESTART,
        Fault.KILL
    };
    private static final Duration RUN_LIMIT = Duration.ofMinutes(20);

    private final Plan plan;
    private final Random random;
    private final List<CrashChild> workers = new ArrayList<>();
    private final List<CrashChild> everyWorker = new ArrayList<>();
    private int started;
    private int kills;
    private int restarts;
    private int cuts;
    private int partitions;
    private int stops;

    ChaosRun(Plan plan) {
        this.plan = plan;
        this.random = new Random(plan.seed());
    }

    /** Runs the full version: {@code [postgres|mariadb] [tasks] [workers] [seed]}. */
    public static void main(String[] args) throws Exception {
        String database = args.length > 0 ? args[0] : "postgres";
        int tasks = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        int workers = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        long seed = args.length > 3 ? Long.parseLong(args[3]) : System.nanoTime();
        Report report = new ChaosRun(new Plan(database, tasks, workers, Duration.ofSeconds(3), 15, seed)).run();
        System.out.println(report);
        report.errorLines().forEach(line -> System.out.println("  ERROR line: " + line));
        System.exit(report.passed() ? 0 : 1);
    }

    Report run() throws Exception {
        OwnServer server =
                plan.database().equals("mariadb") ? new OwnServer.MariaDb(53306) : new OwnServer.Postgres(55432);
        if (!server.available()) {
            throw new IllegalStateException("No " + plan.database() + " server binaries on this machine");
        }
        long begin = System.nanoTime();
        try (server;
                TcpProxy proxy = new TcpProxy("127.0.0.1", server.port)) {
            server.start();
            try (HikariDataSource direct = pool(server.url(server.port), server.user())) {
                Errand harness = Errand.builder(direct)
                        .tablePrefix(PREFIX)
                        .processingEnabled(false)
                        .build();
                try (Connection c = direct.getConnection();
                        Statement s = c.createStatement()) {
                    s.execute("CREATE TABLE " + PREFIX + "effect (task_id BIGINT NOT NULL, note VARCHAR(200))");
                }
                enqueue(harness);
                String url = server.url(proxy.port());
                for (int i = 0; i < plan.workers(); i++) {
                    startWorker(url, server.user());
                }
                injectUntilDone(server, proxy, direct, url);
                harness.stop(Duration.ofSeconds(5));
                workers.forEach(CrashChild::destroy);
                return check(direct, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - begin));
            }
        } finally {
            workers.forEach(CrashChild::destroy);
        }
    }

    private static HikariDataSource pool(String url, String user) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword("");
        config.setMaximumPoolSize(4);
        config.setPoolName("chaos-harness");
        return new HikariDataSource(config);
    }

    private void enqueue(Errand harness) {
        List<TaskRequest> batch = new ArrayList<>();
        for (int i = 0; i < plan.tasks(); i++) {
            batch.add(TaskRequest.of(i % 2 == 0 ? ChaosWorkerMain.TX : ChaosWorkerMain.PLAIN, i));
            if (batch.size() == 1_000) {
                harness.enqueueAll(batch);
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            harness.enqueueAll(batch);
        }
    }

    private void startWorker(String url, String user) throws Exception {
        String node = "chaos-" + (++started);
        CrashChild child = CrashChild.startMain(ChaosWorkerMain.class, "256m", node, url, user, PREFIX, node);
        workers.add(child);
        everyWorker.add(child);
    }

    private void injectUntilDone(OwnServer server, TcpProxy proxy, HikariDataSource direct, String url)
            throws Exception {
        long deadline = System.nanoTime() + RUN_LIMIT.toNanos();
        int fault = 0;
        while (unfinished(direct) > 0 || fault < plan.minimumFaults()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("The chaos run did not finish within " + RUN_LIMIT);
            }
            Thread.sleep(plan.faultEvery().toMillis()); // the point: the pace of the faults
            inject(fault++, server, proxy, url);
        }
        // Let the last completions land, then make sure nothing is left.
        while (unfinished(direct) > 0) {
            Thread.sleep(500);
        }
    }

    private void inject(int fault, OwnServer server, TcpProxy proxy, String url) throws Exception {
        Duration lease = ChaosWorkerMain.LEASE;
        // Every kind of fault early, so that a short run sees each; then mostly kills.
        switch (SCHEDULE[fault % SCHEDULE.length]) {
            case KILL -> {
                CrashChild victim = workers.remove(random.nextInt(workers.size()));
                log("SIGKILL " + victim.pid());
                victim.killHard(Duration.ofSeconds(10));
                kills++;
                // the point: the worker stays dead a random while before its replacement
                Thread.sleep(200 + random.nextInt(2_000));
                startWorker(url, server.user());
            }
            case RESTART -> {
                boolean crash = random.nextBoolean();
                log("restarting the database" + (crash ? " after a crash" : ""));
                server.stop(crash);
                Thread.sleep(500 + random.nextInt(2_500)); // the point: the database stays down this long
                server.restart();
                restarts++;
            }
            case CUT -> {
                log("cutting every connection");
                proxy.cutAll();
                cuts++;
            }
            case PARTITION -> {
                log("black-holing traffic for longer than the lease");
                proxy.blackHole();
                Thread.sleep(lease.toMillis() + 2_000); // the point: the partition outlasts the lease
                proxy.heal();
                partitions++;
            }
            case STOP -> {
                CrashChild victim = workers.get(random.nextInt(workers.size()));
                // Longer than two leases: past that, PostgreSQL ends a stopped worker's idle transaction.
                log("SIGSTOP " + victim.pid() + " for longer than two leases");
                signal("STOP", victim.pid());
                Thread.sleep(2 * lease.toMillis() + 3_000);
                signal("CONT", victim.pid());
                stops++;
            }
        }
    }

    private static void signal(String signal, long pid) throws Exception {
        OwnServer.run(List.of("kill", "-" + signal, Long.toString(pid)), 10);
    }

    private static void log(String what) {
        System.out.println("[chaos] " + what);
    }

    private long unfinished(HikariDataSource direct) {
        try {
            return scalar(
                    direct,
                    "SELECT COUNT(*) FROM " + PREFIX + "task WHERE state IN ('" + TaskState.PENDING.dbValue() + "', '"
                            + TaskState.RUNNING.dbValue() + "')");
        } catch (SQLException e) {
            // The server is restarting.
            return Long.MAX_VALUE;
        }
    }

    private Report check(HikariDataSource direct, long seconds) throws SQLException {
        String task = PREFIX + "task";
        String effect = PREFIX + "effect";
        long succeeded = scalar(
                direct, "SELECT COUNT(*) FROM " + task + " WHERE state = '" + TaskState.SUCCEEDED.dbValue() + "'");
        long failed =
                scalar(direct, "SELECT COUNT(*) FROM " + task + " WHERE state = '" + TaskState.FAILED.dbValue() + "'");
        long lost = plan.tasks() - succeeded - failed;
        // Each transactional task has exactly one effect; a succeeded one without its effect is lost too.
        long duplicates = scalar(
                direct,
                "SELECT COUNT(*) FROM (SELECT task_id FROM " + effect + " WHERE note = 'tx' GROUP BY task_id"
                        + " HAVING COUNT(*) > 1) d");
        long txWithoutEffect = scalar(
                direct,
                "SELECT COUNT(*) FROM " + task + " t WHERE t.kind = '" + ChaosWorkerMain.TX + "' AND NOT EXISTS"
                        + " (SELECT 1 FROM " + effect + " e WHERE e.task_id = t.id AND e.note = 'tx')");
        long plainWithoutRun = scalar(
                direct,
                "SELECT COUNT(*) FROM " + task + " t WHERE t.kind = '" + ChaosWorkerMain.PLAIN + "' AND NOT EXISTS"
                        + " (SELECT 1 FROM " + effect + " e WHERE e.task_id = t.id AND e.note = 'run')");
        // Every run of a non-transactional handler was a claimed attempt: runs never exceed attempts.
        long uncounted = scalar(
                direct,
                "SELECT COUNT(*) FROM " + task + " t WHERE t.kind = '" + ChaosWorkerMain.PLAIN + "' AND t.attempt <"
                        + " (SELECT COUNT(*) FROM " + effect + " e WHERE e.task_id = t.id AND e.note = 'run')");
        log("unfinished or missing " + lost + ", succeeded transactional tasks without their effect " + txWithoutEffect
                + ", succeeded non-transactional tasks without a run " + plainWithoutRun);
        long interruptions = scalar(direct, "SELECT COALESCE(SUM(interruptions), 0) FROM " + task);
        List<String> errors = new ArrayList<>();
        for (CrashChild worker : everyWorker) {
            for (String line : worker.transcript().split("\n")) {
                if ((line.contains(" ERROR dev.errand") || line.contains("Exception in thread"))
                        && !line.contains("stdin closed")) {
                    errors.add(line);
                }
            }
        }
        return new Report(
                plan.database(),
                plan.tasks(),
                seconds,
                kills,
                restarts,
                cuts,
                partitions,
                stops,
                lost + txWithoutEffect + plainWithoutRun,
                duplicates,
                failed,
                uncounted,
                interruptions,
                errors);
    }

    private static long scalar(HikariDataSource direct, String sql) throws SQLException {
        try (Connection c = direct.getConnection();
                Statement s = c.createStatement();
                ResultSet rows = s.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
