package dev.errand.examples.plain;

import com.zaxxer.hikari.HikariDataSource;
import dev.errand.Errand;
import dev.errand.admin.TaskQuery;
import dev.errand.enqueue.TaskRequest;
import dev.errand.examples.plain.DemoTasks.PartnerNotice;
import dev.errand.examples.plain.DemoTasks.ReportRequest;
import dev.errand.task.TaskState;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.sql.DataSource;

/**
 * Errand in plain Java: no framework, just an embedded H2 file database, a HikariCP pool and one
 * Errand node. The demo registers a transactional and a flaky non-transactional kind, enqueues a
 * few hundred tasks, prints progress once a second, and ends with a summary that it cross-checks
 * against the business tables. It exits 0 when everything adds up and 1 when something does not.
 *
 * <p>Run it from the repository root with
 * {@code mvn -q install -DskipTests && mvn -q -pl errand-examples exec:java}. The database lives in
 * {@code errand-examples/target/errand-demo} (system property {@code errand.demo.dir}) and is
 * recreated on every run.
 */
public final class PlainDemo {

    private static final int REPORTS = 120;
    private static final int NOTICES = 240;
    private static final int WORKERS = 4;
    private static final String[] PARTNERS = {"acme", "globex", "initech", "umbrella"};
    /** Far beyond the ~10 s the demo needs; reaching it means tasks are stuck, which is a failure. */
    private static final Duration FINISH_TIMEOUT = Duration.ofSeconds(60);

    private final DataSource dataSource;
    private final DemoTasks tasks = new DemoTasks();
    private final List<String> problems = new ArrayList<>();

    private PlainDemo(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * Runs the demo and exits with status 1 if the final state is inconsistent.
     *
     * @param args ignored
     * @throws Exception if the database cannot be set up or queried
     */
    public static void main(String[] args) throws Exception {
        Path directory = Path.of(System.getProperty("errand.demo.dir", "target/errand-demo"));
        if (!run(directory)) {
            System.exit(1);
        }
    }

    /**
     * Runs the demo on a new database in {@code directory}.
     *
     * @return whether everything added up
     * @throws Exception if the database cannot be set up or queried
     */
    static boolean run(Path directory) throws Exception {
        // Workers (transactional ones hold a connection while they run), the poller, the completer,
        // heartbeats and this thread's progress queries all share the application's pool.
        try (HikariDataSource dataSource = DemoDatabase.openFresh(directory, WORKERS + 6)) {
            System.out.println("Errand plain-Java demo, H2 database in " + directory.toAbsolutePath());
            return new PlainDemo(dataSource).run();
        }
    }

    /** Sets up, runs and checks the demo; returns whether everything added up. */
    private boolean run() throws Exception {
        DemoDatabase.createDemoTables(dataSource);
        // Building applies Errand's migrations (the errand_task table) to the application's database.
        Errand errand = Errand.builder(dataSource)
                .queue("default", WORKERS)
                // Retries are due 200-400 ms after a failure; a short poll picks them up promptly.
                .pollInterval(Duration.ofMillis(100))
                // Keep succeeded tasks (by default they are deleted) so that they can be counted.
                .succeededRetention(Duration.ofHours(1))
                .shutdownTimeout(Duration.ofSeconds(10))
                .register(tasks.sendReport())
                .register(tasks.notifyPartner())
                .build();
        long started = System.nanoTime();
        int enqueued;
        TaskCounts counts;
        double elapsedSeconds;
        boolean stoppedCleanly;
        try {
            errand.start();
            enqueued = enqueue(errand);
            counts = awaitFinalStates(errand, started);
            elapsedSeconds = millisSince(started) / 1000.0;
        } finally {
            // A graceful stop: stop claiming, wait for running tasks, flush buffered completions. It
            // also runs when something above threw, so that no worker outlives the pool.
            stoppedCleanly = errand.stop();
        }
        check(stoppedCleanly, "Errand did not stop within its shutdown timeout");

        printSummaryAndCheck(errand, counts, enqueued, elapsedSeconds);
        return problems.isEmpty();
    }

    /**
     * Enqueues the reports one by one, each in a transaction of its own, and the partner notices
     * in one batch insert. Priorities are mixed: 1 runs first, 10 last.
     */
    private int enqueue(Errand errand) throws SQLException {
        long started = System.nanoTime();
        for (int i = 0; i < REPORTS; i++) {
            ReportRequest report = new ReportRequest(1_000 + i, "customer-" + i % 17);
            errand.enqueue(TaskRequest.builder(DemoTasks.SEND_REPORT, report)
                    .priority(3)
                    .build());
        }
        List<TaskRequest> notices = new ArrayList<>(NOTICES);
        for (int i = 0; i < NOTICES; i++) {
            // Every tenth notice is urgent and jumps the queue; a third are bulk and go last.
            int priority = i % 10 == 0 ? 1 : i % 3 == 0 ? 8 : 5;
            notices.add(TaskRequest.builder(
                            DemoTasks.NOTIFY_PARTNER, new PartnerNotice(50_000 + i, PARTNERS[i % PARTNERS.length]))
                    .priority(priority)
                    .build());
        }
        long singlesDone = System.nanoTime();
        errand.enqueueAll(notices);
        System.out.printf(
                Locale.ROOT,
                "Enqueued %d %s tasks one by one in %d ms and %d %s tasks in one batch" + " in %d ms%n",
                REPORTS,
                DemoTasks.SEND_REPORT.name(),
                (singlesDone - started) / 1_000_000,
                NOTICES,
                DemoTasks.NOTIFY_PARTNER.name(),
                millisSince(singlesDone));
        return REPORTS + NOTICES;
    }

    /**
     * Prints the task counts about once a second until no task can run any more or the timeout
     * passes. It looks every 100 ms so that the elapsed time is not rounded up to whole seconds.
     */
    private TaskCounts awaitFinalStates(Errand errand, long started) throws InterruptedException {
        long deadline = started + FINISH_TIMEOUT.toNanos();
        long nextPrint = started;
        while (true) {
            TaskCounts counts = TaskCounts.read(errand.admin());
            long now = System.nanoTime();
            boolean done = counts.active() == 0;
            if (now >= nextPrint || done) {
                System.out.printf(
                        Locale.ROOT,
                        "[%5.1fs] pending %3d | running %2d | succeeded %3d | failed %2d | failure callbacks %2d%n",
                        (now - started) / 1e9,
                        counts.pending() + counts.waiting(),
                        counts.running(),
                        counts.succeeded(),
                        counts.failed(),
                        tasks.failureCallbacks());
                nextPrint = now + 1_000_000_000L;
            }
            if (done) {
                return counts;
            }
            if (now >= deadline) {
                check(
                        false,
                        counts.active() + " tasks were still pending or running after " + FINISH_TIMEOUT.toSeconds()
                                + " s");
                return counts;
            }
            Thread.sleep(100);
        }
    }

    /** Prints what happened and checks that the task table and the business tables agree. */
    private void printSummaryAndCheck(Errand errand, TaskCounts counts, int enqueued, double elapsedSeconds)
            throws SQLException {
        String taskTable = errand.settings().tablePrefix().taskTable();
        long totalAttempts = DemoDatabase.queryLong(dataSource, "SELECT SUM(attempt) FROM " + taskTable);
        long reportRows = DemoDatabase.queryLong(dataSource, "SELECT COUNT(*) FROM demo_report");
        // A report row written by an attempt that later failed would carry an older attempt number.
        long reportRowsOfSucceededAttempt = DemoDatabase.queryLong(
                dataSource,
                "SELECT COUNT(*)"
                        + " FROM demo_report r JOIN " + taskTable + " t ON t.id = r.task_id"
                        + " WHERE t.state = 'succeeded' AND t.attempt = r.attempt");
        long failureRows = DemoDatabase.queryLong(dataSource, "SELECT COUNT(*) FROM demo_failure");
        long failedEarly = DemoDatabase.queryLong(
                dataSource,
                "SELECT COUNT(*) FROM " + taskTable + " WHERE state = 'failed' AND attempt <> max_attempts");

        System.out.println();
        System.out.println("Summary");
        System.out.printf(
                Locale.ROOT, "  %-15s %9s %7s %9s %14s%n", "kind", "succeeded", "failed", "attempts", "handler calls");
        long reportsSucceeded = printKind(errand, taskTable, DemoTasks.SEND_REPORT.name(), tasks.reportCalls());
        printKind(errand, taskTable, DemoTasks.NOTIFY_PARTNER.name(), tasks.notifyCalls());
        System.out.printf(
                Locale.ROOT,
                "  %-15s %9d %7d %9d %14d%n",
                "total",
                counts.succeeded(),
                counts.failed(),
                totalAttempts,
                tasks.reportCalls() + tasks.notifyCalls());
        System.out.printf(
                Locale.ROOT,
                "  failure callbacks run: %d (rows in demo_failure: %d)%n",
                tasks.failureCallbacks(),
                failureRows);
        System.out.printf(
                Locale.ROOT,
                "  report rows: %d, each written by the attempt that succeeded: %d%n",
                reportRows,
                reportRowsOfSucceededAttempt);
        // Handlers sleep to stand in for real work, so this is no measure of Errand's throughput.
        System.out.printf(Locale.ROOT, "  elapsed: %.1f s%n", elapsedSeconds);
        System.out.println("  engine: " + errand.stats());

        check(
                counts.succeeded() + counts.failed() == enqueued,
                "succeeded + failed = " + (counts.succeeded() + counts.failed()) + ", expected all " + enqueued
                        + " tasks; counts " + counts);
        check(
                totalAttempts == tasks.reportCalls() + tasks.notifyCalls(),
                "the task table counts " + totalAttempts + " attempts but the handlers ran "
                        + (tasks.reportCalls() + tasks.notifyCalls()) + " times");
        check(
                reportRows == reportsSucceeded,
                reportRows + " report rows for " + reportsSucceeded + " succeeded " + DemoTasks.SEND_REPORT.name()
                        + " tasks");
        check(
                reportRowsOfSucceededAttempt == reportRows,
                (reportRows - reportRowsOfSucceededAttempt)
                        + " report rows were not written by the attempt that succeeded");
        check(
                failureRows == counts.failed() && tasks.failureCallbacks() == failureRows,
                "failed tasks "
                        + counts.failed() + ", failure callbacks run " + tasks.failureCallbacks()
                        + ", demo_failure rows "
                        + failureRows + ": expected one callback per failed task");
        check(failedEarly == 0, failedEarly + " failed tasks did not use all their attempts");

        System.out.println();
        if (problems.isEmpty()) {
            System.out.println("OK: every task is final, and the task table and the business tables agree.");
        } else {
            System.out.println("INCONSISTENT:");
            problems.forEach(problem -> System.out.println("  - " + problem));
        }
    }

    /** Prints one kind's line of the summary table; returns how many of its tasks succeeded. */
    private long printKind(Errand errand, String taskTable, String kind, int handlerCalls) throws SQLException {
        long succeeded = errand.admin()
                .count(TaskQuery.builder().kind(kind).state(TaskState.SUCCEEDED).build());
        long failed = errand.admin()
                .count(TaskQuery.builder().kind(kind).state(TaskState.FAILED).build());
        // Kinds are constants of this class, never user input, so splicing them into SQL is safe.
        long attempts = DemoDatabase.queryLong(
                dataSource, "SELECT SUM(attempt) FROM " + taskTable + " WHERE kind = '" + kind + "'");
        System.out.printf(Locale.ROOT, "  %-15s %9d %7d %9d %14d%n", kind, succeeded, failed, attempts, handlerCalls);
        return succeeded;
    }

    private void check(boolean condition, String problem) {
        if (!condition) {
            problems.add(problem);
        }
    }

    private static long millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }
}
