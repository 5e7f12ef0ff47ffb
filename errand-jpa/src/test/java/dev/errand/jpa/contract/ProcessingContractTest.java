package dev.errand.jpa.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.jpa.EntityQueue;
import dev.errand.jpa.EntityQueues;
import dev.errand.jpa.state.QueueStatus;
import dev.errand.jpa.testing.Message;
import dev.errand.jpa.testing.QueueTestSupport;
import dev.errand.retry.RetryPolicy;
import dev.errand.task.FailureCause;
import dev.errand.testkit.TestDatabase;
import jakarta.persistence.OptimisticLockException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The path of an item through an entity queue, on Hibernate with each database: claimed with
 * {@code SKIP LOCKED}, processed in its own transaction, retried by its policy on the database clock, failed
 * for good with its callback, and shared by nodes without any item processed twice.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.jpa.testing.Databases#all")
class ProcessingContractTest extends QueueTestSupport {

    private static final Duration WAIT = Duration.ofSeconds(20);

    ProcessingContractTest(TestDatabase database) {
        super(database);
    }

    @Test
    void pendingItemsAreProcessedOnceEachAndMarkedDone() {
        List<Long> ids = save(30);
        Set<Long> seen = ConcurrentHashMap.newKeySet();
        AtomicInteger calls = new AtomicInteger();
        EntityQueues node = started(node().register(sending((message, context) -> {
                    calls.incrementAndGet();
                    seen.add(message.id());
                    assertThat(context.attempt()).isEqualTo(1);
                    assertThat(context.entityManager().contains(message)).isTrue();
                    message.sent();
                })
                .concurrency(3)
                .batchSize(7)
                .build()));
        EntityQueue<Message> queue = node.queue("send", Message.class);

        await().atMost(WAIT).until(() -> queue.countByStatus().get(QueueStatus.DONE) == 30);
        assertThat(calls).hasValue(30);
        assertThat(seen).containsExactlyInAnyOrderElementsOf(ids);
        for (long id : ids) {
            Message message = load(id);
            assertThat(message.sends())
                    .as("the processor's change committed with the item")
                    .isEqualTo(1);
            assertThat(message.sendState().status()).isEqualTo(QueueStatus.DONE);
            assertThat(message.sendState().attempts()).isEqualTo(1);
            assertThat(message.sendState().leaseOwner()).isNull();
            assertThat(message.sendState().leaseToken()).isNull();
            assertThat(message.sendState().lastAttemptAt()).isNotNull();
            assertThat(message.crmState().status())
                    .as("the other queue's state is untouched")
                    .isNull();
        }
        assertThat(queue.countByStatus())
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        QueueStatus.PENDING,
                        0L,
                        QueueStatus.IN_PROGRESS,
                        0L,
                        QueueStatus.DONE,
                        30L,
                        QueueStatus.FAILED,
                        0L));
        assertThat(queue.stats().done()).isEqualTo(30);
    }

    @Test
    void aFailedAttemptRollsBackAndIsRetriedAfterThePolicysDelayOnTheDatabaseClock() throws Exception {
        long id = save(1).get(0);
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        EntityQueues node = started(node().register(sending((message, context) -> {
                    attempts.add(context.attempt());
                    message.sent();
                    message.note("attempt " + context.attempt());
                    if (context.attempt() == 1) {
                        throw new IllegalStateException("gateway said no");
                    }
                })
                .retryPolicy(RetryPolicy.fixed(Duration.ofHours(1)))
                .build()));

        await().atMost(WAIT).until(() -> load(id).sendState().lastError() != null);
        Instant now = databaseNow();
        Message retried = load(id);
        assertThat(retried.sendState().status()).isEqualTo(QueueStatus.PENDING);
        assertThat(retried.sendState().attempts()).isEqualTo(1);
        assertThat(retried.sendState().lastError()).isEqualTo("java.lang.IllegalStateException: gateway said no");
        assertThat(retried.sendState().leaseOwner()).isNull();
        assertThat(retried.sends()).as("the failed attempt's write rolled back").isZero();
        assertThat(retried.note()).isNull();
        assertThat(retried.sendState().nextAttemptAt())
                .as("due one hour after the failure, in the database's time")
                .isBetween(now.plus(Duration.ofMinutes(59)), now.plus(Duration.ofMinutes(61)));

        Thread.sleep(300); // the point: nothing may run in this time, the retry is an hour away
        assertThat(attempts).as("not retried before its time").containsExactly(1);
        clock.advance(Duration.ofHours(1));
        node.queue("send", Message.class).wakeUp();

        await().atMost(WAIT).until(() -> load(id).sendState().status() == QueueStatus.DONE);
        Message done = load(id);
        assertThat(attempts).containsExactly(1, 2);
        assertThat(done.sendState().attempts()).isEqualTo(2);
        assertThat(done.sends()).isEqualTo(1);
        assertThat(done.note()).isEqualTo("attempt 2");
        assertThat(done.sendState().lastError()).as("kept as history").contains("gateway said no");
        assertThat(node.queue("send", Message.class).stats().retried()).isEqualTo(1);
    }

    @Test
    void theLastAttemptFailsForGoodAndTheCallbackCommitsOnceWithTheFailure() {
        long id = save(1).get(0);
        AtomicInteger callbacks = new AtomicInteger();
        List<Object> causes = new CopyOnWriteArrayList<>();
        EntityQueues node = started(node().register(sending((message, context) -> {
                    message.sent();
                    throw new IllegalArgumentException("unknown subscriber " + message.id());
                })
                .retryPolicy(RetryPolicy.fixed(Duration.ZERO))
                .maxAttempts(3)
                .onFinalFailure((message, failure) -> {
                    callbacks.incrementAndGet();
                    causes.add(failure.cause());
                    assertThat(failure.attempts()).isEqualTo(3);
                    assertThat(failure.queue()).isEqualTo("send");
                    assertThat(failure.entityId()).isEqualTo(message.id());
                    message.note("gave up: " + failure.error());
                })
                .build()));
        EntityQueue<Message> queue = node.queue("send", Message.class);

        await().atMost(WAIT).until(() -> load(id).sendState().status() == QueueStatus.FAILED);
        Message failed = load(id);
        assertThat(failed.sendState().attempts()).isEqualTo(3);
        assertThat(failed.sendState().lastError())
                .isEqualTo("java.lang.IllegalArgumentException: unknown subscriber " + id);
        assertThat(failed.sendState().nextAttemptAt()).isNull();
        assertThat(failed.sends()).as("every attempt's write rolled back").isZero();
        assertThat(failed.note()).isEqualTo("gave up: java.lang.IllegalArgumentException: unknown subscriber " + id);
        assertThat(callbacks).hasValue(1);
        assertThat(causes).singleElement().isInstanceOfSatisfying(FailureCause.HandlerFailed.class, cause -> {
            assertThat(cause.exceptionType()).isEqualTo(IllegalArgumentException.class.getName());
            assertThat(cause.exception()).isInstanceOf(IllegalArgumentException.class);
        });
        assertThat(queue.countByStatus()).containsEntry(QueueStatus.FAILED, 1L);
        assertThat(queue.stats().failed()).isEqualTo(1);
        assertThat(queue.stats().retried()).isEqualTo(2);
    }

    @Test
    void aThrowingCallbackStillFailsTheItemAndBothErrorsAreRecorded() {
        long id = save(1).get(0);
        AtomicInteger callbacks = new AtomicInteger();
        started(node().register(sending((message, context) -> {
                    throw new IllegalStateException("carrier timed out");
                })
                .maxAttempts(1)
                .onFinalFailure((message, failure) -> {
                    callbacks.incrementAndGet();
                    message.note("must roll back");
                    throw new OutOfMemoryError("callback broke");
                })
                .build()));

        await().atMost(WAIT).until(() -> load(id).sendState().status() == QueueStatus.FAILED);
        Message failed = load(id);
        assertThat(failed.sendState().lastError())
                .isEqualTo("java.lang.IllegalStateException: carrier timed out; the final-failure callback threw"
                        + " java.lang.OutOfMemoryError: callback broke");
        assertThat(failed.note()).as("the callback's write rolled back").isNull();
        assertThat(callbacks).hasValue(1);
    }

    @Test
    void resetFailedPutsFailedItemsBackAndTheyRunAgainWithNewAttempts() throws Exception {
        List<Long> ids = save(3);
        AtomicInteger failUntil = new AtomicInteger(1);
        EntityQueues node = started(node().register(sending((message, context) -> {
                    if (failUntil.get() > 0) {
                        throw new IllegalStateException("down");
                    }
                    message.sent();
                })
                .maxAttempts(1)
                .build()));
        EntityQueue<Message> queue = node.queue("send", Message.class);
        await().atMost(WAIT).until(() -> queue.countByStatus().get(QueueStatus.FAILED) == 3);

        failUntil.set(0);
        assertThat(queue.resetFailed()).isEqualTo(3);
        await().atMost(WAIT).until(() -> queue.countByStatus().get(QueueStatus.DONE) == 3);
        for (long id : ids) {
            Message done = load(id);
            assertThat(done.sendState().attempts())
                    .as("counted afresh after the reset")
                    .isEqualTo(1);
            assertThat(done.sends()).isEqualTo(1);
        }
        assertThat(queue.resetFailed()).isZero();
    }

    @Test
    void itemsDueByTheirTimeComeBeforeItemsEnqueuedAsSoonAsPossible() throws Exception {
        Instant past = databaseNow().minus(Duration.ofMinutes(1));
        long asap = save(1).get(0);
        long older = save(1, message -> message.sendState().enqueueAt(past.minusSeconds(5)))
                .get(0);
        long due = save(1, message -> message.sendState().enqueueAt(past)).get(0);
        List<Long> order = new CopyOnWriteArrayList<>();
        started(node().register(sending((message, context) -> order.add(message.id()))
                .concurrency(1)
                .batchSize(1)
                .build()));

        await().atMost(WAIT).until(() -> order.size() == 3);
        assertThat(order).containsExactly(older, due, asap);
    }

    @Test
    void anItemDueLaterWaitsForItsTimeOnTheDatabaseClock() throws Exception {
        Instant inOneHour = databaseNow().plus(Duration.ofHours(1));
        long id = save(1, message -> message.sendState().enqueueAt(inOneHour)).get(0);
        CountDownLatch processed = new CountDownLatch(1);
        started(node().register(
                        sending((message, context) -> processed.countDown()).build()));

        assertThat(processed.await(500, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(load(id).sendState().status()).isEqualTo(QueueStatus.PENDING);
        clock.advance(Duration.ofMinutes(61));
        assertThat(processed.await(10, TimeUnit.SECONDS)).isTrue();
        await().atMost(WAIT).until(() -> load(id).sendState().status() == QueueStatus.DONE);
    }

    @Test
    void anItemSavedPendingWakesTheQueueWhenItsTransactionCommitsAndNotWhenItRollsBack() throws Exception {
        Set<Long> processed = ConcurrentHashMap.newKeySet();
        EntityQueues node = started(node().register(sending((message, context) -> processed.add(message.id()))
                .pollInterval(Duration.ofHours(1))
                .build()));
        Thread.sleep(200); // past the first poll (not observable), which finds nothing and then waits an hour

        emf.runInTransaction(em -> {
            em.persist(new Message("rolled back"));
            em.flush();
            em.getTransaction().setRollbackOnly();
        });
        long id = save(1).get(0);
        await().atMost(Duration.ofSeconds(5)).until(() -> processed.contains(id));
        await().atMost(Duration.ofSeconds(5)).until(() -> load(id).sendState().status() == QueueStatus.DONE);
        assertThat(processed).containsExactly(id);
        assertThat(node.queue("send", Message.class).countByStatus().get(QueueStatus.DONE))
                .isEqualTo(1);
    }

    @Test
    void twoStatesOfOneEntityAreTwoQueuesAndAProcessorMayEnqueueTheOther() {
        List<Long> ids = save(5);
        Set<Long> notified = ConcurrentHashMap.newKeySet();
        started(node().register(sending((message, context) -> {
                            message.sent();
                            message.crmState().enqueue();
                        })
                        .build())
                .register(crm((message, context) -> {
                            assertThat(message.sendState().status()).isEqualTo(QueueStatus.DONE);
                            notified.add(message.id());
                            message.note("crm notified");
                        })
                        .build()));

        await().atMost(WAIT).until(() -> notified.size() == 5);
        await().atMost(WAIT)
                .until(() -> ids.stream().allMatch(id -> load(id).crmState().status() == QueueStatus.DONE));
        for (long id : ids) {
            Message message = load(id);
            assertThat(message.sendState().status()).isEqualTo(QueueStatus.DONE);
            assertThat(message.sends()).isEqualTo(1);
            assertThat(message.note()).isEqualTo("crm notified");
            assertThat(message.crmState().attempts()).isEqualTo(1);
        }
    }

    @Test
    void stoppingWaitsForTheRunningItemAndHandsBackThoseClaimedButNotStarted() throws Exception {
        List<Long> ids = save(5);
        CountDownLatch inProcessor = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<Long> processed = new CopyOnWriteArrayList<>();
        EntityQueues node = started(node().register(sending((message, context) -> {
                    inProcessor.countDown();
                    assertThat(release.await(20, TimeUnit.SECONDS)).isTrue();
                    processed.add(message.id());
                    message.sent();
                })
                .concurrency(1)
                .batchSize(10)
                .build()));
        assertThat(inProcessor.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(node.queue("send", Message.class).countByStatus().get(QueueStatus.IN_PROGRESS))
                .as("one batch claimed ahead of the single worker")
                .isEqualTo(5);

        Thread releaser = new Thread(() -> {
            try {
                Thread.sleep(300); // the point: stop() must already be waiting for the running item
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            release.countDown();
        });
        releaser.start();
        assertThat(node.stop(Duration.ofSeconds(10)))
                .as("the running item finished")
                .isTrue();
        releaser.join();

        assertThat(processed).hasSize(1);
        for (long id : ids) {
            Message message = load(id);
            if (processed.contains(id)) {
                assertThat(message.sendState().status()).isEqualTo(QueueStatus.DONE);
            } else {
                assertThat(message.sendState().status()).isEqualTo(QueueStatus.PENDING);
                assertThat(message.sendState().attempts())
                        .as("the claim's attempt uncounted")
                        .isZero();
                assertThat(message.sendState().leaseOwner()).isNull();
            }
        }
    }

    @Test
    void anItemWhoseEntityWasDeletedAfterItsClaimIsCountedAsSkippedNotDone() throws Exception {
        List<Long> ids = save(2);
        List<Long> entered = new CopyOnWriteArrayList<>();
        CountDownLatch inProcessor = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        EntityQueues node = started(node().register(sending((message, context) -> {
                    entered.add(message.id());
                    inProcessor.countDown();
                    assertThat(release.await(20, TimeUnit.SECONDS)).isTrue();
                    message.sent();
                })
                .concurrency(1)
                .batchSize(10)
                .build()));
        EntityQueue<Message> queue = node.queue("send", Message.class);
        assertThat(inProcessor.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(queue.countByStatus().get(QueueStatus.IN_PROGRESS))
                .as("both claimed; the second waits for the single worker")
                .isEqualTo(2);
        long deleted =
                ids.stream().filter(id -> !entered.contains(id)).findFirst().orElseThrow();
        emf.runInTransaction(em -> em.remove(em.find(Message.class, deleted)));

        release.countDown();
        await().atMost(WAIT).until(() -> queue.stats().done() + queue.stats().skipped() == 2);
        assertThat(queue.stats().done()).as("the processed item").isEqualTo(1);
        assertThat(queue.stats().skipped()).as("the deleted entity's item").isEqualTo(1);
        assertThat(entered).as("no processor ran for the deleted entity").doesNotContain(deleted);
        assertThat(load(deleted)).isNull();
        assertThat(queue.countByStatus().get(QueueStatus.DONE)).isEqualTo(1);
    }

    @Test
    void aStaleCopyOfAnEntityCannotWriteAnOldStateBackOverTheQueuesWork() {
        long id = save(1).get(0);
        Message stale = load(id);
        started(node().register(sending((message, context) -> message.sent()).build()));
        await().atMost(WAIT).until(() -> load(id).sendState().status() == QueueStatus.DONE);

        stale.note("edited from an old copy");
        assertThatThrownBy(() -> emf.runInTransaction(em -> em.merge(stale)))
                .isInstanceOf(OptimisticLockException.class);
        Message done = load(id);
        assertThat(done.sendState().status()).isEqualTo(QueueStatus.DONE);
        assertThat(done.note()).isNull();
    }

    @Test
    void nodesSharingAQueueProcessEveryItemExactlyOnce() {
        List<Long> ids = save(120);
        Map<Long, String> byNode = new ConcurrentHashMap<>();
        AtomicInteger duplicates = new AtomicInteger();
        for (String nodeId : List.of("node-a", "node-b", "node-c")) {
            started(node().nodeId(nodeId)
                    .register(sending((message, context) -> {
                                if (byNode.putIfAbsent(message.id(), nodeId) != null) {
                                    duplicates.incrementAndGet();
                                }
                                message.sent();
                            })
                            .concurrency(4)
                            .batchSize(5)
                            .build()));
        }

        await().atMost(WAIT)
                .until(() -> byNode.size() == 120
                        && emf.callInTransaction(em -> em.createQuery(
                                                "SELECT COUNT(m) FROM Message m WHERE m.sendState.status = :done",
                                                Long.class)
                                        .setParameter("done", QueueStatus.DONE)
                                        .getSingleResult())
                                == 120);
        assertThat(duplicates).hasValue(0);
        assertThat(byNode.keySet()).containsExactlyInAnyOrderElementsOf(ids);
        long total = emf.callInTransaction(em ->
                em.createQuery("SELECT SUM(m.sends) FROM Message m", Long.class).getSingleResult());
        assertThat(total).isEqualTo(120);
    }
}
