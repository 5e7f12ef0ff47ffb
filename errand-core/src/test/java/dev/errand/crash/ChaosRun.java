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

    /**
     * What to run. {@code minimumKills} above 0 is the scale mode: the tasks are enqueued as the run goes, so that
     * the kills land on work, faults are nearly all SIGKILLs (a restart, a cut, a partition every 100 and a SIGSTOP
     * every 200), and batches, workflows and a schedule run beside the plain tasks ({@link ChaosExtras}).
     */
    record Plan(
            String database,
            int tasks,
            int workers,
            Duration faultEvery,
            int minimumFaults,
            long seed,
            int minimumKills) {

        /** The short run's plan, without the scale mode. */
        Plan(String database, int tasks, int workers, Duration faultEvery, int minimumFaults, long seed) {
            this(database, tasks, workers, faultEvery, minimumFaults, seed, 0);
        }

        boolean scale() {
            return minimumKills > 0;
        }
    }

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
            List<String> errorLines,
            String extras) {

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
                    + errorLines.size() + (extras.isEmpty() ? "" : "; beside them: " + extras);
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
    /**
     * 0 for the short run in the test suite; 10 for {@link #main}, so that a full run (ports 55442 and 53316) and
     * the suite's run never share a server or its data directory.
     */
    private int portShift;

    private final Random random;
    private final ChaosExtras extras = new ChaosExtras(PREFIX);
    private int enqueued;
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

    /**
     * Runs the full version: {@code [postgres|mariadb] [tasks] [workers] [seed] [minimumKills]}; a minimum number
     * of kills above 0 runs the scale mode (see {@link Plan}), one fault a second.
     */
    public static void main(String[] args) throws Exception {
        String database = args.length > 0 ? args[0] : "postgres";
        int tasks = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        int workers = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        long seed = args.length > 3 ? Long.parseLong(args[3]) : System.nanoTime();
        int minimumKills = args.length > 4 ? Integer.parseInt(args[4]) : 0;
        Plan plan = minimumKills > 0
                ? new Plan(database, tasks, workers, Duration.ofSeconds(1), 15, seed, minimumKills)
                : new Plan(database, tasks, workers, Duration.ofSeconds(3), 15, seed);
        ChaosRun run = new ChaosRun(plan);
        run.portShift = 10;
        Report report = run.run();
        System.out.println(report);
        report.errorLines().forEach(line -> System.out.println("  ERROR line: " + line));
        System.exit(report.passed() ? 0 : 1);
    }

    Report run() throws Exception {
        OwnServer server = plan.database().equals("mariadb")
                ? new OwnServer.MariaDb(OwnServer.freePort(53306 + portShift))
                : new OwnServer.Postgres(OwnServer.freePort(55432 + portShift));
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
                if (plan.scale()) {
                    enqueueUpTo(harness, plan.tasks() / 100);
                    extras.enqueueRound(harness);
                } else {
                    enqueueUpTo(harness, plan.tasks());
                }
                String url = server.url(proxy.port());
                for (int i = 0; i < plan.workers(); i++) {
                    startWorker(url, server.user());
                }
                injectUntilDone(server, proxy, direct, url, harness);
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

    /** Half the tasks are non-transactional; of the transactional half, one in two uses group commit. */
    private static String kindOf(int number) {
        if (number % 2 == 1) {
            return ChaosWorkerMain.PLAIN;
        }
        return number % 4 == 0 ? ChaosWorkerMain.TX : ChaosWorkerMain.GROUPED;
    }

    private void enqueueUpTo(Errand harness, int total) {
        List<TaskRequest> batch = new ArrayList<>();
        for (; enqueued < Math.min(total, plan.tasks()); enqueued++) {
            // The workers' kinds allow 1,000 attempts; the harness does not register them, so the request says it.
            batch.add(TaskRequest.builder(kindOf(enqueued), enqueued)
                    .maxAttempts(1000)
                    .build());
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
        CrashChild child = plan.scale()
                ? CrashChild.startMain(ChaosWorkerMain.class, "256m", node, url, user, PREFIX, node, "extras")
                : CrashChild.startMain(ChaosWorkerMain.class, "256m", node, url, user, PREFIX, node);
        workers.add(child);
        everyWorker.add(child);
    }

    private void injectUntilDone(OwnServer server, TcpProxy proxy, HikariDataSource direct, String url, Errand harness)
            throws Exception {
        // The scale mode's pace: a kill every 1.3 s on a quiet machine, every 4.2 s on a loaded one (JVM starts).
        Duration limit = plan.scale() ? RUN_LIMIT.plus(Duration.ofSeconds(6L * plan.minimumKills())) : RUN_LIMIT;
        long deadline = System.nanoTime() + limit.toNanos();
        int fault = 0;
        while (unfinished(direct) > 0
                || fault < plan.minimumFaults()
                || kills < plan.minimumKills()
                || enqueued < plan.tasks()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("The chaos run did not finish within " + limit + "; " + kills + " kills, "
                        + enqueued + " tasks enqueued");
            }
            Thread.sleep(plan.faultEvery().toMillis()); // the point: the pace of the faults
            if (plan.scale()) {
                // Work arrives as the kills go on, in step with them, so that they land on running tasks.
                enqueueUpTo(harness, (int) ((long) plan.tasks() * (kills + 1) / plan.minimumKills()));
                if (fault % 50 == 49) {
                    extras.enqueueRound(harness);
                }
            }
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
        switch (plan.scale() ? scaleFault(fault) : SCHEDULE[fault % SCHEDULE.length]) {
            case KILL -> {
                List<CrashChild> ready = workers.stream()
                        .filter(w -> w.transcript().contains(CrashWorkerMain.READY))
                        .toList();
                if (plan.scale() && ready.isEmpty()) {
                    log("no worker ready yet; no kill this time");
                    return;
                }
                CrashChild victim = ready.isEmpty()
                        ? workers.get(random.nextInt(workers.size()))
                        : ready.get(random.nextInt(ready.size()));
                workers.remove(victim);
                log("SIGKILL " + victim.pid());
                victim.killHard(Duration.ofSeconds(10));
                kills++;
                // the point: the worker stays dead a random while before its replacement
                Thread.sleep(plan.scale() ? random.nextInt(500) : 200 + random.nextInt(2_000));
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

    /** The scale mode's schedule: SIGKILLs, with each other fault now and then. */
    private static Fault scaleFault(int fault) {
        return switch (fault % 200) {
            case 25, 125 -> Fault.CUT;
            case 50, 150 -> Fault.RESTART;
            case 75, 175 -> Fault.PARTITION;
            case 99 -> Fault.STOP;
            default -> Fault.KILL;
        };
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
                            + TaskState.RUNNING.dbValue() + "') AND " + ChaosExtras.notTicks());
        } catch (SQLException e) {
            // The server is restarting.
            return Long.MAX_VALUE;
        }
    }

    private Report check(HikariDataSource direct, long seconds) throws SQLException {
        String task = PREFIX + "task";
        String effect = PREFIX + "effect";
        String plainKinds = " AND kind IN ('" + ChaosWorkerMain.TX + "', '" + ChaosWorkerMain.GROUPED + "', '"
                + ChaosWorkerMain.PLAIN + "')";
        long succeeded = scalar(
                direct,
                "SELECT COUNT(*) FROM " + task + " WHERE state = '" + TaskState.SUCCEEDED.dbValue() + "'" + plainKinds);
        long failed =
                scalar(direct, "SELECT COUNT(*) FROM " + task + " WHERE state = '" + TaskState.FAILED.dbValue() + "'");
        long failedPlain = scalar(
                direct,
                "SELECT COUNT(*) FROM " + task + " WHERE state = '" + TaskState.FAILED.dbValue() + "'" + plainKinds);
        long lost = plan.tasks() - succeeded - failedPlain;
        // Each transactional task has exactly one effect (a non-transactional run, 'run' or 'loose', may repeat);
        // a succeeded one without its effect is lost too.
        long duplicates = scalar(
                direct,
                "SELECT COUNT(*) FROM (SELECT task_id FROM " + effect + " WHERE note NOT IN ('run', 'loose') GROUP BY"
                        + " task_id HAVING COUNT(*) > 1) d");
        ChaosExtras.Found found = plan.scale() ? extras.check(direct) : new ChaosExtras.Found(0, 0, 0, 0, "");
        long txWithoutEffect = scalar(
                direct,
                "SELECT COUNT(*) FROM " + task + " t WHERE t.kind IN ('" + ChaosWorkerMain.TX + "', '"
                        + ChaosWorkerMain.GROUPED + "') AND NOT EXISTS"
                        + " (SELECT 1 FROM " + effect + " e WHERE e.task_id = t.id AND e.note = 'tx')");
        long plainWithoutRun = scalar(
                direct,
                "SELECT COUNT(*) FROM " + task + " t WHERE t.kind = '" + ChaosWorkerMain.PLAIN + "' AND NOT EXISTS"
                        + " (SELECT 1 FROM " + effect + " e WHERE e.task_id = t.id AND e.note = 'run')");
        // Every run of a non-transactional handler was a claimed attempt: runs never exceed attempts.
        long uncounted = scalar(direct, ChaosExtras.runsAboveAttempts(PREFIX, ChaosWorkerMain.PLAIN, "run"));
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
                lost + txWithoutEffect + plainWithoutRun + found.lost(),
                duplicates + found.duplicates() + found.violations(),
                failed,
                uncounted + found.uncountedRuns(),
                interruptions,
                errors,
                found.summary());
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
