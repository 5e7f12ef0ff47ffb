package dev.errand.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A database outage, made by cutting every connection through a TCP proxy and refusing new ones for a few
 * seconds while tasks run: the node recovers by itself, nothing is lost or applied twice, and the log says
 * so in a few WARN and INFO lines, without ERROR lines or stack traces.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#servers")
class DatabaseOutageTest extends ErrandTestSupport {

    private static final int TASKS_PER_MODE = 150;

    DatabaseOutageTest(Target target) {
        super(target);
    }

    /** A pool that reaches the test database through {@code proxy}. */
    static HikariDataSource through(TcpProxy proxy, String url, String user) {
        URI uri = URI.create(url.substring("jdbc:".length()));
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url.replace(":" + uri.getPort() + "/", ":" + proxy.port() + "/"));
        config.setUsername(user);
        config.setPassword("");
        config.setMaximumPoolSize(12);
        config.setConnectionTimeout(1_000);
        config.setValidationTimeout(500);
        config.setPoolName("errand-outage");
        return new HikariDataSource(config);
    }

    static int portOf(String url) {
        return URI.create(url.substring("jdbc:".length())).getPort();
    }

    @Test
    void anOutageIsRecoveredQuietlyAndExactlyOnce() throws Exception {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream original = System.err;
        try (TcpProxy proxy = new TcpProxy("127.0.0.1", portOf(database.url()));
                HikariDataSource proxied = through(proxy, database.url(), database.userName())) {
            Errand errand = node(builder(proxied)
                    .queue("default", 8)
                    .rescueInterval(Duration.ofSeconds(1))
                    // Longer than the outage: a worker whose transaction was cut gives the attempt back itself.
                    .leaseDuration(Duration.ofSeconds(15))
                    .heartbeatInterval(Duration.ofSeconds(1))
                    .historyEnabled(true)
                    .register(TaskDefinition.builder("tx", Integer.class, (n, ctx) -> {
                                recordEffect(ctx.connection(), ctx.taskId(), "tx");
                                Thread.sleep(20); // slow on purpose: runs are in flight when the connections are cut
                            })
                            .maxAttempts(3)
                            .build())
                    .register(TaskDefinition.builder("plain", Integer.class, (n, ctx) -> {
                                recordEffect(ctx.taskId(), "plain");
                                Thread.sleep(20); // slow on purpose: runs are in flight when the connections are cut
                            })
                            .mode(ExecutionMode.NON_TRANSACTIONAL)
                            .maxAttempts(3)
                            .build()));
            for (int i = 0; i < TASKS_PER_MODE; i++) {
                errand.enqueue(TaskRequest.of("tx", i));
                errand.enqueue(TaskRequest.of("plain", i));
            }
            System.setErr(new PrintStream(new Tee(original, captured), true, StandardCharsets.UTF_8));
            errand.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> effects() >= 40);
            proxy.refuse(true);
            proxy.cutAll();
            Thread.sleep(4_000); // the point: the outage lasts this long
            proxy.refuse(false);
            await().atMost(Duration.ofSeconds(90)).until(() -> taskRows() == 0);
            // Before its pool closes, so that the node does not see it go.
            errand.stop(Duration.ofSeconds(5));
        } finally {
            System.setErr(original);
        }
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "effect WHERE note = 'tx'"))
                .as("each transactional effect exactly once")
                .isEqualTo(TASKS_PER_MODE);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task_attempt WHERE kind = 'tx' AND attempt > 1"))
                .as("a transactional attempt cut off by the outage is given back, not counted")
                .isZero();
        assertThat(scalar("SELECT COUNT(DISTINCT task_id) FROM " + prefix + "effect WHERE note = 'plain'"))
                .isEqualTo(TASKS_PER_MODE);

        List<String> lines =
                Arrays.asList(captured.toString(StandardCharsets.UTF_8).split("\n"));
        List<String> errandLines = lines.stream()
                .filter(l -> l.matches("^\\d\\d:\\d\\d:.*") && l.contains(" dev.errand"))
                .toList();
        // PgJDBC checks an internal assertion on a connection cut under it, and the test JVM runs with -ea:
        // the AssertionError it throws then is the driver's, not Errand's, and does not happen without -ea.
        assertThat(errandLines)
                .as("no ERROR from Errand")
                .noneMatch(l -> l.contains(" ERROR ") && !l.contains("AssertionError: pgStatement"));
        // The pool's own lines may carry stack traces; Errand's may not.
        for (int i = 0; i + 1 < lines.size(); i++) {
            if (lines.get(i).matches("^\\d\\d:\\d\\d:.*")
                    && lines.get(i).contains(" dev.errand")
                    && !lines.get(i).contains("AssertionError: pgStatement")) {
                assertThat(lines.get(i + 1))
                        .as("no stack trace after %s", lines.get(i))
                        .matches("^(\\d\\d:\\d\\d:.*|\\s*)$");
            }
        }
        // One per thread and duty: 17 since the leader's dead-node and pin sweeps run as duties of their own, 19
        // since the nodes write their throughput counts per minute as a duty.
        assertThat(errandLines.stream().filter(l -> l.contains(" WARN ")).count())
                .as("one WARN per episode and thread, not per task: %s", errandLines)
                .isLessThanOrEqualTo(19);
        assertThat(errandLines).as("the end of the episode is said").anyMatch(l -> l.contains("works again"));
    }

    /** Writes to the console and to a buffer. */
    private static final class Tee extends OutputStream {
        private final OutputStream first;
        private final OutputStream second;

        Tee(OutputStream first, OutputStream second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public void write(int b) throws java.io.IOException {
            first.write(b);
            synchronized (second) {
                second.write(b);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws java.io.IOException {
            first.write(b, off, len);
            synchronized (second) {
                second.write(b, off, len);
            }
        }
    }
}
