package dev.errand.examples.sms;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Ctrl-C in the middle of a run on the default H2 file database: the demo runs in a real process that gets
 * SIGTERM. Errand must stop while the database is still open, hand its unstarted tasks back, and leave no
 * lease behind, so that the next run on the same file finishes the left-over messages at once instead of
 * waiting for the dead run's leases to expire.
 */
class SmsDemoShutdownTest {

    @Test
    void sigtermMidRunReleasesEveryTaskAndTheNextRunFinishesTheLeftOvers() throws Exception {
        Path directory = Path.of(
                        "target", "sms-demo-shutdown", UUID.randomUUID().toString())
                .toAbsolutePath();
        Path database = directory.resolve("sms-demo");
        String h2File = "--sms.h2-file=" + database;

        // 400 messages of 200 ms on 4 workers take half a minute; the run is stopped after its first second.
        DemoProcess first = DemoProcess.start(
                directory,
                "first.log",
                h2File,
                "--server.port=0",
                "--sms.messages=400",
                "--sms.send-time=200ms",
                "--sms.exit-when-done=false");
        try {
            first.awaitLog("Progress of batch", Duration.ofSeconds(60));
            first.terminate();
            first.awaitExit(Duration.ofSeconds(30));
        } finally {
            first.kill();
        }
        String firstLog = first.log();
        assertThat(firstLog)
                .contains("The application is closing: batch", "Errand engine stopped")
                .doesNotContain("Could not release", "Database is already closed", "Could not schedule", "will expire");
        // The console pattern: "10:53:00.228  INFO Engine             Errand engine stopped ...", one line each.
        assertThat(firstLog.lines().filter(line -> !line.isBlank()).toList())
                .isNotEmpty()
                .allSatisfy(line -> assertThat(line).matches("\\d{2}:\\d{2}:\\d{2}\\.\\d{3} [ A-Z]{5} .{18} \\S.*"));
        assertThat(firstLog.lines().filter(line -> line.contains(" SmsSender ")).toList())
                .isNotEmpty()
                .allSatisfy(line -> assertThat(line.length()).isLessThan(140));

        // Read with plain JDBC: the stopped run left pending tasks without a lease, one per queued message.
        long leftOver;
        try (Connection connection = DriverManager.getConnection("jdbc:h2:file:" + database, "sa", "")) {
            assertThat(count(connection, "SELECT COUNT(*) FROM errand_task WHERE state = 'running'"))
                    .isZero();
            assertThat(count(
                            connection,
                            "SELECT COUNT(*) FROM errand_task WHERE state IN ('pending', 'waiting',"
                                    + " 'running') AND (lease_owner IS NOT NULL OR lease_token IS NOT NULL"
                                    + " OR lease_expires_at IS NOT NULL)"))
                    .isZero();
            leftOver = count(connection, "SELECT COUNT(*) FROM sms_message WHERE status = 'QUEUED'");
            assertThat(leftOver).as("messages left queued by the stopped run").isBetween(1L, 399L);
            assertThat(count(
                            connection,
                            "SELECT COUNT(*) FROM errand_task WHERE state = 'pending' AND kind = 'send-sms'"))
                    .isEqualTo(leftOver);
        }

        // The second run queues nothing new and sends the left-overs quickly: no lease stands in its way.
        DemoProcess second = DemoProcess.start(
                directory,
                "second.log",
                h2File,
                "--server.port=0",
                "--sms.messages=0",
                "--sms.send-time=5ms",
                "--sms.exit-when-done=true");
        int exitCode;
        try {
            exitCode = second.awaitExit(Duration.ofSeconds(60));
        } finally {
            second.kill();
        }
        String secondLog = second.log();
        assertThat(exitCode).as("exit code; the log:%n%s", secondLog).isZero();
        assertThat(secondLog).contains("Every message reached a final state.", "rescued=0");
        // Errand starts before the run counts the left-overs, so it may have sent a few of them already.
        Matcher found = Pattern.compile("; (\\d+) messages left queued by an earlier run will be sent too")
                .matcher(secondLog);
        assertThat(found.find()).as("the left-overs in:%n%s", secondLog).isTrue();
        assertThat(Long.parseLong(found.group(1))).isBetween(1L, leftOver);
        Matcher elapsed = Pattern.compile("0 messages: 0 sent, 0 failed for good, in ([0-9.]+) s")
                .matcher(secondLog);
        assertThat(elapsed.find()).as("the summary in:%n%s", secondLog).isTrue();
        // Waiting for leases would take what is left of their 60 s plus up to a 15 s rescue interval; sending
        // the left-overs takes a few seconds, and up to about 10 s on a loaded 2-core CI machine (10.2 s once).
        assertThat(Double.parseDouble(elapsed.group(1))).isLessThan(30.0);

        try (Connection connection = DriverManager.getConnection("jdbc:h2:file:" + database, "sa", "")) {
            assertThat(count(connection, "SELECT COUNT(*) FROM sms_message WHERE status = 'QUEUED'"))
                    .isZero();
            assertThat(count(connection, "SELECT COUNT(*) FROM sms_message")).isEqualTo(400);
            assertThat(count(
                            connection,
                            "SELECT COUNT(*) FROM errand_task WHERE state IN ('pending', 'waiting'," + " 'running')"))
                    .isZero();
        }
    }

    private static long count(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        }
    }
}
