package dev.errand.crash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import dev.errand.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * An {@link OutOfMemoryError} while claiming or decoding does not kill a queue for good: in a real JVM
 * with a 64 MB heap, claiming and decoding rows with 20 MB payloads runs out of memory, and once the huge
 * rows are gone the node's poller claims and runs new tasks again. (PostgreSQL's driver turns an
 * {@code OutOfMemoryError} while reading results into an {@code SQLException}; the node then reports the
 * poller's failures like any other, and unhealthy after three in a row.)
 */
class OutOfMemoryRecoveryTest extends ErrandTestSupport {

    OutOfMemoryRecoveryTest() {
        super(Target.of(TestDatabase.POSTGRES));
    }

    @Test
    void aPollerSurvivesAnOutOfMemoryErrorAndClaimsAgain() throws Exception {
        // The schema first, from this JVM; the child only runs.
        node(builder());
        execute("INSERT INTO " + prefix + "task (kind, queue, payload, max_attempts)"
                + " SELECT 'blob', 'default', jsonb_build_object('s', repeat('x', 20000000)), 3"
                + " FROM generate_series(1, 8)");

        CrashChild child = CrashChild.startMain(
                OutOfMemoryWorkerMain.class, "64m", "oom-child", database.url(), database.userName(), prefix);
        try {
            child.awaitLine(OutOfMemoryWorkerMain.READY, Duration.ofSeconds(30));
            // The child claims the huge rows and runs out of memory on them, in its poller or its worker.
            await().atMost(Duration.ofSeconds(40))
                    .pollInterval(Duration.ofMillis(200))
                    .untilAsserted(() ->
                            assertThat(child.transcript()).containsAnyOf("OutOfMemoryError", "Ran out of memory"));

            // Even after the huge rows are gone, the queue must work: today's poller claims and runs again.
            execute("DELETE FROM " + prefix + "task");
            execute("INSERT INTO " + prefix + "task (kind, queue, payload, max_attempts) VALUES ('blob', 'default',"
                    + " '{\"s\": \"small\"}', 3)");
            child.awaitLine(OutOfMemoryWorkerMain.RAN, Duration.ofSeconds(30));
            assertThat(child.isAlive()).isTrue();
            assertThat(child.transcript())
                    .as("an attempt that ran out of memory is recorded, not left to expire")
                    .doesNotContain("Unexpected failure ending task");
        } finally {
            child.destroy();
        }
    }

    private void execute(String sql) throws Exception {
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        }
    }
}
