package dev.errand.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.history.Attempt;
import dev.errand.history.AttemptOutcome;
import dev.errand.task.TaskDefinition;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import dev.errand.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An attempt whose transaction loses its connection for real (the server ends the session under it) is the
 * infrastructure's failure: it is given back, does not count against the task's maximum attempts, and is
 * recorded on the row and in the history.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#servers")
class InterruptionTest extends ErrandTestSupport {

    private final AtomicInteger runs = new AtomicInteger();

    InterruptionTest(Target target) {
        super(target);
    }

    /** Makes the server end this connection's session, as a restart or a network cut would. */
    private void loseConnection(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement()) {
            if (database == TestDatabase.POSTGRES) {
                s.execute("SELECT pg_terminate_backend(pg_backend_pid())");
            } else {
                s.execute("KILL CONNECTION CONNECTION_ID()");
            }
            // A server that answered still ended the session: the next statement fails on it.
            s.execute("SELECT 1");
        }
    }

    @Test
    void aLostConnectionDoesNotUseUpTheOnlyAttempt() throws Exception {
        Errand errand = node(builder()
                .historyEnabled(true)
                .register(TaskDefinition.builder("cut-off", Integer.class, (n, ctx) -> {
                            recordEffect(ctx.connection(), ctx.taskId(), "run-" + runs.incrementAndGet());
                            if (runs.get() <= 2) {
                                loseConnection(ctx.connection());
                            }
                        })
                        .maxAttempts(1)
                        .build()));
        long id = errand.enqueue(TaskRequest.of("cut-off", 1)).id();
        errand.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> taskRows() == 0);

        assertThat(effectNotes()).as("the cut-off runs rolled back").containsExactly("run-3");
        List<Attempt> attempts = errand.history().attempts(id);
        assertThat(attempts)
                .extracting(Attempt::outcome)
                .containsExactly(AttemptOutcome.INTERRUPTED, AttemptOutcome.INTERRUPTED, AttemptOutcome.SUCCEEDED);
        assertThat(attempts).extracting(Attempt::attempt).containsOnly(1);
        assertThat(attempts.get(0).error().type()).contains("SQL");
    }

    @Test
    void theRowCountsItsInterruptions() throws Exception {
        Errand errand = node(builder()
                .register(TaskDefinition.builder("cut-once", Integer.class, (n, ctx) -> {
                            if (runs.incrementAndGet() == 1) {
                                loseConnection(ctx.connection());
                            }
                            // Stays pending after the interruption: the second run fails on purpose.
                            throw new IllegalStateException("second run fails on purpose");
                        })
                        .maxAttempts(1)
                        .build()));
        long id = errand.enqueue(TaskRequest.of("cut-once", 1)).id();
        errand.start();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> scalar("SELECT COUNT(*) FROM " + prefix + "task WHERE state = 'failed'") == 1);
        assertThat(runs.get()).isEqualTo(2);
        assertThat(scalar("SELECT interruptions FROM " + prefix + "task WHERE id = " + id))
                .isEqualTo(1);
        assertThat(task(errand, id).attempt()).isEqualTo(1);
        assertThat(task(errand, id).lastError()).contains("second run fails on purpose");
    }
}
