package dev.errand.examples.plain;

import dev.errand.retry.RetryPolicy;
import dev.errand.task.ExecutionMode;
import dev.errand.task.FailedTask;
import dev.errand.task.FailureCause;
import dev.errand.task.TaskContext;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskKind;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The demo's two task kinds, their payloads, and counters of what their handlers and failure
 * callbacks did, so that the summary can compare them with what the task table says.
 *
 * <ul>
 *   <li>{@link #SEND_REPORT} runs {@link ExecutionMode#TRANSACTIONAL}: it writes a row into
 *       {@code demo_report} on the task's own transaction, and now and then crashes right after the
 *       write. The crash rolls the row back together with the attempt, so every report exists once.</li>
 *   <li>{@link #NOTIFY_PARTNER} runs {@link ExecutionMode#NON_TRANSACTIONAL}, like a call to another
 *       company's API: it fails on about a third of its attempts, and after its last attempt the
 *       failure callback records the task in {@code demo_failure}.</li>
 * </ul>
 */
final class DemoTasks {

    /** The transactional kind; its payload is a {@link ReportRequest}. */
    static final TaskKind<ReportRequest> SEND_REPORT = TaskKind.of("send-report", ReportRequest.class);

    /** The flaky, non-transactional kind; its payload is a {@link PartnerNotice}. */
    static final TaskKind<PartnerNotice> NOTIFY_PARTNER = TaskKind.of("notify-partner", PartnerNotice.class);

    /** Attempts a report gets; its crashes are rare, so in practice every report succeeds. */
    static final int REPORT_MAX_ATTEMPTS = 4;

    /** Attempts a notification gets; a third fail each time, so about 1 in 27 fails for good. */
    static final int NOTIFY_MAX_ATTEMPTS = 3;

    /**
     * A report to write for a customer.
     *
     * @param reportId the business key; {@code demo_report} refuses a second row with it
     * @param customer who the report is for
     */
    public record ReportRequest(long reportId, String customer) {}

    /**
     * A notice to send to a partner.
     *
     * @param orderId the order the notice is about
     * @param partner the partner to call
     */
    public record PartnerNotice(long orderId, String partner) {}

    private final AtomicInteger reportCalls = new AtomicInteger();
    private final AtomicInteger notifyCalls = new AtomicInteger();
    private final AtomicInteger failureCallbacks = new AtomicInteger();

    /** The transactional kind: its write to {@code demo_report} commits with the task's completion. */
    TaskDefinition<ReportRequest> sendReport() {
        return TaskDefinition.builder(SEND_REPORT, this::writeReport)
                .mode(ExecutionMode.TRANSACTIONAL)
                .maxAttempts(REPORT_MAX_ATTEMPTS)
                // Short fixed delays keep the demo within seconds; real kinds back off far longer.
                .retryPolicy(RetryPolicy.fixed(Duration.ofMillis(200)))
                .onFailure(this::recordFailure)
                .build();
    }

    /** The non-transactional, flaky kind; its final failures are recorded by the failure callback. */
    TaskDefinition<PartnerNotice> notifyPartner() {
        return TaskDefinition.builder(NOTIFY_PARTNER, this::callPartner)
                .mode(ExecutionMode.NON_TRANSACTIONAL)
                .maxAttempts(NOTIFY_MAX_ATTEMPTS)
                .retryPolicy(RetryPolicy.delays(Duration.ofMillis(200), Duration.ofMillis(400)))
                .onFailure(this::recordFailure)
                .build();
    }

    private void writeReport(ReportRequest report, TaskContext context) throws Exception {
        reportCalls.incrementAndGet();
        pretendToWork(20, 60);
        // context.connection() is the transaction that also completes the task: this row and the
        // task's "succeeded" state commit together, or neither does.
        try (PreparedStatement insert = context.connection()
                .prepareStatement(
                        "INSERT INTO demo_report (report_id, customer, task_id, attempt) VALUES (?, ?, ?, ?)")) {
            insert.setLong(1, report.reportId());
            insert.setString(2, report.customer());
            insert.setLong(3, context.taskId());
            insert.setInt(4, context.attempt());
            insert.executeUpdate();
        }
        if (ThreadLocalRandom.current().nextInt(10) == 0) {
            // Crash after the write: the row rolls back with the attempt. If it did not, the retry's
            // insert would hit demo_report's primary key and the report could never succeed.
            throw new IllegalStateException("Report renderer crashed after writing report " + report.reportId()
                    + " (attempt " + context.attempt() + "); the row rolls back with the attempt");
        }
    }

    private void callPartner(PartnerNotice notice, TaskContext context) throws Exception {
        notifyCalls.incrementAndGet();
        pretendToWork(30, 120);
        if (ThreadLocalRandom.current().nextInt(3) == 0) {
            throw new IOException("Partner " + notice.partner() + " answered 503 for order " + notice.orderId());
        }
    }

    /**
     * Runs once per task that fails for good, on the transaction that marks it failed: the row
     * below commits exactly when the failure does, so {@code demo_failure} never double-counts. One
     * callback serves both kinds, so it is generic in the payload, which it does not need.
     */
    private <P> void recordFailure(FailedTask<P> task, Connection connection) throws SQLException {
        failureCallbacks.incrementAndGet();
        String error = reason(task.cause());
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO demo_failure (task_id, kind, attempts, error) VALUES (?, ?, ?, ?)")) {
            insert.setLong(1, task.id());
            insert.setString(2, task.kind());
            insert.setInt(3, task.attempts());
            insert.setString(4, error.length() > 1000 ? error.substring(0, 1000) : error);
            insert.executeUpdate();
        }
    }

    /**
     * The failure in one line: the handler's exception type and message when the handler threw (the
     * demo's only case), or Errand's own description for the other causes, such as a lost worker.
     */
    static String reason(FailureCause cause) {
        if (cause instanceof FailureCause.HandlerFailed failed) {
            String type =
                    failed.exceptionType().substring(failed.exceptionType().lastIndexOf('.') + 1);
            return failed.message() == null ? type : type + ": " + failed.message();
        }
        return cause.describe();
    }

    /** Sleeps a random time, standing in for rendering or a network call. */
    private static void pretendToWork(int minMillis, int maxMillis) throws InterruptedException {
        Thread.sleep(ThreadLocalRandom.current().nextInt(minMillis, maxMillis + 1));
    }

    /** How many times the {@link #SEND_REPORT} handler ran. */
    int reportCalls() {
        return reportCalls.get();
    }

    /** How many times the {@link #NOTIFY_PARTNER} handler ran. */
    int notifyCalls() {
        return notifyCalls.get();
    }

    /** How many times a failure callback ran (including any whose transaction later rolled back). */
    int failureCallbacks() {
        return failureCallbacks.get();
    }
}
