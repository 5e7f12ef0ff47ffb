package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.TaskDefinition;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import dev.errand.testkit.TestDatabase;
import java.sql.Connection;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Wake-ups: with a poll interval far longer than the test allows, a task must still start quickly
 * because the enqueue signalled the poller.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#claiming")
class WakeUpContractTest extends ErrandTestSupport {

    private static final Duration SLOW_POLL = Duration.ofSeconds(30);

    WakeUpContractTest(Target target) {
        super(target);
    }

    private Errand worker() {
        return node(builder()
                .pollInterval(SLOW_POLL)
                .register(TaskDefinition.builder(
                                "wake",
                                Integer.class,
                                (n, ctx) -> recordEffect(ctx.connection(), ctx.taskId(), "woke-" + n))
                        .build()));
    }

    @Test
    void sameNodeEnqueueWakesItsPollerInProcess() throws Exception {
        Errand errand = worker();
        errand.start();
        awaitFirstPoll(errand); // only the wake-up claims from here on
        errand.enqueue(TaskRequest.of("wake", 1));
        await().atMost(Duration.ofSeconds(5)).until(() -> effects() == 1);
    }

    @Test
    void callerTransactionEnqueueWakesAfterCommitWhenAsked() throws Exception {
        Errand errand = worker();
        errand.start();
        awaitFirstPoll(errand); // only the wake-up claims from here on
        try (Connection c = dataSource().getConnection()) {
            c.setAutoCommit(false);
            errand.enqueue(c, TaskRequest.of("wake", 2));
            c.commit();
        }
        errand.wakeUp("default");
        await().atMost(Duration.ofSeconds(5)).until(() -> effects() == 1);
    }

    /** PostgreSQL only: another node's commit reaches this node through LISTEN/NOTIFY. */
    @Test
    void otherNodesCommitWakesThroughListenNotify() throws Exception {
        assumeTrue(database == TestDatabase.POSTGRES, "only PostgreSQL has LISTEN/NOTIFY");
        Errand errand = worker();
        errand.start();
        Errand producer = node(builder().processingEnabled(false));
        awaitFirstPoll(errand); // only the notification claims from here on
        try (Connection c = dataSource().getConnection()) {
            c.setAutoCommit(false);
            producer.enqueue(c, TaskRequest.of("wake", 3));
            Thread.sleep(300); // the point: nothing runs before the commit
            assertThat(effects()).as("nothing runs before commit").isZero();
            c.commit();
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> effects() == 1);
    }
}
