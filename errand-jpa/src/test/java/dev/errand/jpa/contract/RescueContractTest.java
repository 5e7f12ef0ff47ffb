package dev.errand.jpa.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.jpa.EntityQueues;
import dev.errand.jpa.queue.FinalFailure;
import dev.errand.jpa.state.QueueStatus;
import dev.errand.jpa.testing.Message;
import dev.errand.jpa.testing.QueueTestSupport;
import dev.errand.retry.RetryPolicy;
import dev.errand.task.FailureCause;
import dev.errand.testkit.TestDatabase;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Crash recovery by lease, inside one JVM: an item left in progress by a node that is gone is found when its
 * lease expires (on the database clock) and retried or failed, while an attempt that still runs is never
 * taken, however long it outlives its lease, because its transaction holds the row lock. The real crash, a
 * SIGKILLed JVM, is in {@code EntityQueueCrashTest}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.jpa.testing.Databases#all")
class RescueContractTest extends QueueTestSupport {

    private static final Duration WAIT = Duration.ofSeconds(20);

    RescueContractTest(TestDatabase database) {
        super(database);
    }

    @Test
    void anItemLeftInProgressByALostNodeIsRetriedWhenItsLeaseExpires() throws Exception {
        long id = save(1).get(0);
        leftInProgressBy("ghost-node", id);
        Message inProgress = load(id);
        assertThat(inProgress.sendState().status()).isEqualTo(QueueStatus.IN_PROGRESS);
        assertThatThrownBy(() -> inProgress.sendState().enqueue())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ghost-node")
                .hasMessageContaining("once it is DONE or FAILED");

        List<Integer> attempts = new CopyOnWriteArrayList<>();
        EntityQueues node = built(node().register(sending((message, context) -> {
                    attempts.add(context.attempt());
                    message.sent();
                })
                .retryPolicy(RetryPolicy.fixed(Duration.ZERO))
                .build()));
        assertThat(node.rescueExpiredLeases())
                .as("the lease has not expired yet")
                .isZero();

        clock.advance(Duration.ofMinutes(2));
        assertThat(node.rescueExpiredLeases()).isEqualTo(1);
        Message rescued = load(id);
        assertThat(rescued.sendState().status()).isEqualTo(QueueStatus.PENDING);
        assertThat(rescued.sendState().attempts()).isEqualTo(1);
        assertThat(rescued.sendState().leaseOwner()).isNull();
        assertThat(rescued.sendState().lastError()).isEqualTo("Worker lost: the lease held by node ghost-node expired");

        node.start();
        await().atMost(WAIT).until(() -> load(id).sendState().status() == QueueStatus.DONE);
        assertThat(attempts).containsExactly(2);
        assertThat(load(id).sends()).isEqualTo(1);
        assertThat(node.queue("send", Message.class).stats().rescued()).isEqualTo(1);
    }

    @Test
    void aLostNodesLastAttemptFailsTheItemWithTheCallback() throws Exception {
        long id = save(1).get(0);
        leftInProgressBy("ghost-node", id);
        List<FinalFailure> failures = new CopyOnWriteArrayList<>();
        EntityQueues node = built(node().register(sending((message, context) -> message.sent())
                .maxAttempts(1)
                .onFinalFailure((message, failure) -> {
                    failures.add(failure);
                    message.note("lost");
                })
                .build()));

        clock.advance(Duration.ofMinutes(2));
        assertThat(node.rescueExpiredLeases()).isEqualTo(1);
        Message failed = load(id);
        assertThat(failed.sendState().status()).isEqualTo(QueueStatus.FAILED);
        assertThat(failed.note()).isEqualTo("lost");
        assertThat(failures).singleElement().satisfies(failure -> {
            assertThat(failure.cause()).isEqualTo(new FailureCause.WorkerLost("ghost-node"));
            assertThat(failure.attempts()).isEqualTo(1);
        });
        assertThat(node.rescueExpiredLeases()).isZero();
    }

    @Test
    void anAttemptThatStillRunsIsNeverRescuedHoweverLongItOutlivesItsLease() throws Exception {
        long id = save(1).get(0);
        CountDownLatch inProcessor = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        started(node().nodeId("slow-node")
                .leaseDuration(Duration.ofSeconds(1))
                .register(sending((message, context) -> {
                            inProcessor.countDown();
                            assertThat(release.await(30, TimeUnit.SECONDS)).isTrue();
                            message.sent();
                        })
                        .build()));
        assertThat(inProcessor.await(10, TimeUnit.SECONDS)).isTrue();
        EntityQueues other = built(node().nodeId("other-node")
                .register(sending((message, context) -> message.sent()).build()));

        clock.advance(Duration.ofMinutes(5));
        assertThat(other.rescueExpiredLeases())
                .as("the running attempt holds its row lock")
                .isZero();
        release.countDown();

        await().atMost(WAIT).until(() -> load(id).sendState().status() == QueueStatus.DONE);
        Message done = load(id);
        assertThat(done.sendState().attempts()).isEqualTo(1);
        assertThat(done.sends()).isEqualTo(1);
        assertThat(done.sendState().lastError()).isNull();
    }

    /** Leaves an item as a node that died in its attempt would: in progress, under a lease that ends in a minute. */
    private void leftInProgressBy(String node, long id) {
        emf.runInTransaction(em -> assertThat(em.createNativeQuery("UPDATE " + prefix + "jpa_message SET"
                                + " send_status = 'IN_PROGRESS', send_attempts = 1, send_lease_owner = :owner,"
                                + " send_lease_token = 42, send_last_attempt_at = " + database.nowSql()
                                + ", send_lease_expires_at = " + database.nowSql()
                                + " + INTERVAL '1' MINUTE WHERE id = :id")
                        .setParameter("owner", node)
                        .setParameter("id", id)
                        .executeUpdate())
                .isEqualTo(1));
    }
}
