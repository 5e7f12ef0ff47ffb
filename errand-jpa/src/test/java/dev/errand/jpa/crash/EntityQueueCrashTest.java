package dev.errand.jpa.crash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.jpa.EntityQueues;
import dev.errand.jpa.state.QueueStatus;
import dev.errand.jpa.testing.Message;
import dev.errand.jpa.testing.QueueTestSupport;
import dev.errand.testkit.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A real crash: a node processing an entity queue in its own JVM ({@link CrashWorkerMain}) is killed with
 * SIGKILL while one of its items is inside the processor, with the item's write flushed but not committed.
 * The database rolls that transaction back; this JVM's node finds the item when its lease expires and
 * processes it again. Nothing is lost, and every item's effect is committed exactly once.
 *
 * <p>Both nodes use the real database clock: the test waits about two seconds for the dead node's lease to
 * lapse by itself, which proves that the lease ends without help.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.jpa.testing.Databases#servers")
class EntityQueueCrashTest extends QueueTestSupport {

    private static final String CHILD = "jpa-crash-child";
    private static final Duration CHILD_START = Duration.ofSeconds(40);

    EntityQueueCrashTest(TestDatabase database) {
        super(database);
    }

    @Test
    void aNodeKilledInsideAProcessorLosesNothingAndEveryEffectCommitsOnce() throws Exception {
        List<Long> ids = save(10, message -> {});
        long stalled = save(1, message -> {}).get(0);
        emf.runInTransaction(em -> em.createNativeQuery("UPDATE " + prefix + "jpa_message SET body = '"
                        + CrashWorkerMain.STALL + "' WHERE id = " + stalled)
                .executeUpdate());
        EntityQueues survivor = built(node().nodeId("jpa-crash-survivor")
                .rescueInterval(Duration.ofMillis(200))
                .register(sending((message, context) -> message.sent()).build()));

        ChildJvm child =
                ChildJvm.start(CrashWorkerMain.class, CHILD, database.url(), database.userName(), prefix, CHILD);
        Instant leaseEnd;
        try {
            assertThat(child.awaitLine(CrashWorkerMain.IN_PROCESSOR + " " + stalled + " ", CHILD_START))
                    .isEqualTo(CrashWorkerMain.IN_PROCESSOR + " " + stalled + " 1");
            Message inProgress = load(stalled);
            assertThat(inProgress.sendState().status()).isEqualTo(QueueStatus.IN_PROGRESS);
            assertThat(inProgress.sendState().leaseOwner()).isEqualTo(CHILD);
            assertThat(inProgress.sends())
                    .as("the child's write is flushed, not committed")
                    .isZero();
            leaseEnd = inProgress.sendState().leaseExpiresAt();

            // Past its lease, the live attempt still holds its row lock: no node may take it.
            await().atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> databaseNow().isAfter(leaseEnd));
            assertThat(survivor.rescueExpiredLeases())
                    .as("rescued while its node still ran")
                    .isZero();

            assertThat(child.killHard(Duration.ofSeconds(10))).isEqualTo(ChildJvm.SIGKILL_EXIT_STATUS);
        } finally {
            child.destroy();
        }

        survivor.start();
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> emf.callInTransaction(em -> em.createQuery(
                                        "SELECT COUNT(m) FROM Message m WHERE m.sendState.status = :done", Long.class)
                                .setParameter("done", QueueStatus.DONE)
                                .getSingleResult())
                        == 11);
        Message recovered = load(stalled);
        assertThat(recovered.sends())
                .as("the killed attempt's write rolled back")
                .isEqualTo(1);
        assertThat(recovered.sendState().attempts()).isEqualTo(2);
        assertThat(recovered.sendState().lastError())
                .isEqualTo("Worker lost: the lease held by node " + CHILD + " expired");
        for (long id : ids) {
            assertThat(load(id).sends())
                    .as("message %d's effect, exactly once", id)
                    .isEqualTo(1);
        }
        assertThat(survivor.queue("send", Message.class).stats().rescued()).isGreaterThanOrEqualTo(1);
    }
}
