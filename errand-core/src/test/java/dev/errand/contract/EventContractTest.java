package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.event.Condition;
import dev.errand.event.PrematureEvent;
import dev.errand.event.Triggered;
import dev.errand.event.WaitingTask;
import dev.errand.internal.node.Nodes;
import dev.errand.task.FailureCause;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/** Conditions, triggers, premature events and deadlines, on a real database. */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class EventContractTest extends ErrandTestSupport {

    private final AtomicInteger runs = new AtomicInteger();
    private final List<FailureCause> causes = new CopyOnWriteArrayList<>();

    EventContractTest(Target target) {
        super(target);
    }

    private Errand eventNode() {
        return node(builder()
                .register(TaskDefinition.builder("receipt", Integer.class, (n, ctx) -> {
                            runs.incrementAndGet();
                            recordEffect(ctx.connection(), ctx.taskId(), "ran-" + n);
                        })
                        .onFailure((failed, c) -> causes.add(failed.cause()))
                        .build()));
    }

    private static TaskRequest waitingFor(int n, String... events) {
        TaskRequest.Builder request = TaskRequest.builder("receipt", n);
        for (String event : events) {
            request.condition(event);
        }
        return request.build();
    }

    @Test
    void aWaitingTaskRunsOnlyOnceEveryConditionIsTriggered() throws Exception {
        Errand errand = eventNode();
        long id = errand.enqueue(waitingFor(1, "paid", "shipped")).id();
        errand.start();
        assertThat(task(errand, id).state()).isEqualTo(TaskState.WAITING);

        Triggered paid = errand.triggerEvent("paid");
        assertThat(paid).isEqualTo(new Triggered("paid", 1, 0, false));
        Thread.sleep(300); // the point: one of two events does not release the task
        assertThat(task(errand, id).state()).isEqualTo(TaskState.WAITING);
        assertThat(runs).hasValue(0);
        assertThat(errand.events().waiting(10)).singleElement().satisfies(waiting -> assertThat(
                        waiting.openConditions())
                .extracting(WaitingTask.OpenCondition::event)
                .containsExactly("shipped"));

        assertThat(errand.triggerEvent("shipped")).isEqualTo(new Triggered("shipped", 1, 1, false));
        await().atMost(Duration.ofSeconds(10)).until(() -> taskRows() == 0);
        assertThat(effectNotes()).containsExactly("ran-1");
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task_condition")).isZero();
        assertThat(errand.events().premature(10)).isEmpty();
    }

    @Test
    void aTriggerJoinsTheCallersTransaction() throws Exception {
        Errand errand = eventNode();
        long id = errand.enqueue(waitingFor(1, "approved")).id();
        try (Connection c = dataSource().getConnection()) {
            c.setAutoCommit(false);
            assertThat(errand.triggerEvent(c, "approved").releasedTasks()).isEqualTo(1);
            c.rollback();
        }
        assertThat(task(errand, id).state()).isEqualTo(TaskState.WAITING);
        assertThat(errand.events().premature(10)).isEmpty();
        try (Connection c = dataSource().getConnection()) {
            c.setAutoCommit(false);
            errand.triggerEvent(c, "approved");
            c.commit();
        }
        assertThat(task(errand, id).state()).isEqualTo(TaskState.PENDING);
        errand.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> taskRows() == 0);
    }

    @Test
    void anEnqueueWithConditionsOnTheCallersConnectionCommitsOrRollsBackWithIt() throws Exception {
        Errand errand = eventNode();
        try (Connection c = dataSource().getConnection()) {
            c.setAutoCommit(false);
            errand.enqueue(c, waitingFor(1, "never"));
            c.rollback();
        }
        assertThat(taskRows()).isZero();
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task_condition")).isZero();
        try (Connection c = dataSource().getConnection()) {
            // Auto-commit: the task and its condition still commit together.
            errand.enqueue(c, waitingFor(2, "later"));
        }
        assertThat(tasksIn(TaskState.WAITING)).isEqualTo(1);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task_condition")).isEqualTo(1);
    }

    @Test
    void aPrematureEventIsStoredOnceAndConsumedByTheFirstTaskThatWaitsForIt() throws Exception {
        Errand errand = eventNode();
        assertThat(errand.triggerEvent("early").storedAsPremature()).isTrue();
        assertThat(errand.triggerEvent("early").storedAsPremature()).isTrue();
        assertThat(errand.events().premature(10)).singleElement().satisfies(event -> {
            assertThat(event.event()).isEqualTo("early");
            assertThat(event.times()).isEqualTo(2);
            assertThat(event.lastTriggeredAt()).isAfterOrEqualTo(event.firstTriggeredAt());
        });

        long first = errand.enqueue(waitingFor(1, "early")).id();
        long second = errand.enqueue(waitingFor(2, "early")).id();
        long both = errand.enqueue(waitingFor(3, "other", "early")).id();
        assertThat(task(errand, first).state()).isEqualTo(TaskState.PENDING);
        assertThat(task(errand, second).state()).isEqualTo(TaskState.WAITING);
        assertThat(task(errand, both).state()).isEqualTo(TaskState.WAITING);
        assertThat(errand.events().premature(10)).isEmpty();

        Triggered early = errand.triggerEvent("early");
        assertThat(early.fulfilledConditions()).isEqualTo(2);
        assertThat(early.releasedTasks()).isEqualTo(1);
        assertThat(task(errand, second).state()).isEqualTo(TaskState.PENDING);
        assertThat(task(errand, both).state()).isEqualTo(TaskState.WAITING);
    }

    @Test
    void aDeduplicatedEnqueueConsumesNoPrematureEvent() throws Exception {
        Errand errand = eventNode();
        long id = errand.enqueue(TaskRequest.builder("receipt", 1)
                        .uniqueKey("order-7")
                        .condition("paid-7")
                        .build())
                .id();
        errand.triggerEvent("unrelated");
        assertThat(errand.enqueue(TaskRequest.builder("receipt", 1)
                                .uniqueKey("order-7")
                                .condition("unrelated")
                                .build())
                        .deduplicated())
                .isTrue();
        assertThat(errand.events().premature(10))
                .extracting(PrematureEvent::event)
                .containsExactly("unrelated");
        assertThat(task(errand, id).state()).isEqualTo(TaskState.WAITING);
    }

    @Test
    void oneTriggerReleasesManyTasksAtOnce() throws Exception {
        Errand errand = eventNode();
        List<TaskRequest> requests = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            requests.add(waitingFor(i, "batch-done"));
        }
        errand.enqueueAll(requests);
        assertThat(tasksIn(TaskState.WAITING)).isEqualTo(300);
        Triggered triggered = errand.triggerEvent("batch-done");
        assertThat(triggered.releasedTasks()).isEqualTo(300);
        assertThat(tasksIn(TaskState.PENDING)).isEqualTo(300);
        errand.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> taskRows() == 0);
        assertThat(distinctEffects()).isEqualTo(300);
        assertThat(effects()).isEqualTo(300);
    }

    @Test
    void cancellingAWaitingTaskLeavesNoConditionToAbsorbALaterTrigger() throws Exception {
        Errand errand = eventNode();
        long id = errand.enqueue(waitingFor(1, "gone")).id();
        assertThat(errand.admin().cancel(id)).isTrue();
        assertThat(task(errand, id).state()).isEqualTo(TaskState.CANCELLED);
        assertThat(errand.triggerEvent("gone").storedAsPremature()).isTrue();
        assertThat(errand.events().waitingFor("gone", 10)).isEmpty();
    }

    @Test
    void prematureEventsCanBeListedDeletedAndExpireAfterARetention() throws Exception {
        Errand errand = eventNode();
        errand.triggerEvent("a");
        errand.triggerEvent("b");
        assertThat(errand.events().deletePremature("a")).isTrue();
        assertThat(errand.events().deletePremature("a")).isFalse();
        assertThat(errand.events().deletePrematureOlderThan(Duration.ofMinutes(5)))
                .isZero();
        clock.advance(Duration.ofMinutes(10));
        assertThat(errand.events().deletePrematureOlderThan(Duration.ofMinutes(5)))
                .isEqualTo(1);

        Errand pruning = node(builder()
                .nodeId("pruner")
                .prematureEventRetention(Duration.ofMinutes(1))
                .pruneInterval(Duration.ofSeconds(1)));
        pruning.triggerEvent("stale");
        pruning.start();
        Thread.sleep(1_500); // the point: a prune runs (interval 1 s) and keeps the young event
        assertThat(pruning.events().premature(10)).hasSize(1);
        clock.advance(Duration.ofMinutes(2));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> pruning.events().premature(10).isEmpty());
    }

    @Test
    void aWaitingTaskExpiresAtItsDeadlineWithATypedCause() throws Exception {
        Errand errand = eventNode();
        long id = errand.enqueue(TaskRequest.builder("receipt", 1)
                        .condition("never")
                        .expiresIn(Duration.ofMinutes(5))
                        .build())
                .id();
        assertThat(Nodes.of(errand).expireOverdueTasks()).isZero();
        clock.advance(Duration.ofMinutes(6));
        assertThat(Nodes.of(errand).expireOverdueTasks()).isEqualTo(1);
        assertThat(Nodes.of(errand).expireOverdueTasks()).isZero();
        assertThat(task(errand, id).state()).isEqualTo(TaskState.FAILED);
        assertThat(task(errand, id).lastError()).contains("Expired").contains("deadline");
        assertThat(causes).singleElement().isInstanceOfSatisfying(FailureCause.Expired.class, expired -> {
            assertThat(expired.condition()).isNull();
        });
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task_condition")).isZero();
        assertThat(errand.triggerEvent("never").storedAsPremature()).isTrue();

        // An operator who runs it again means it to run: the deadline goes, and so do the conditions.
        assertThat(errand.admin().retryNow(id)).isTrue();
        errand.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> taskRows() == 0);
        assertThat(effectNotes()).containsExactly("ran-1");
    }

    @Test
    void aConditionsOwnDeadlineNamesTheCondition() throws Exception {
        Errand errand = eventNode();
        long id = errand.enqueue(TaskRequest.builder("receipt", 1)
                        .condition("fast")
                        .condition(Condition.on("slow").timeout(Duration.ofMinutes(2)))
                        .build())
                .id();
        errand.triggerEvent("fast");
        clock.advance(Duration.ofMinutes(3));
        assertThat(Nodes.of(errand).expireOverdueTasks()).isEqualTo(1);
        assertThat(task(errand, id).lastError()).contains("condition 'slow'");
        assertThat(causes).singleElement().isInstanceOfSatisfying(FailureCause.Expired.class, expired -> {
            assertThat(expired.condition()).isEqualTo("slow");
        });
    }

    @Test
    void aFulfilledConditionsDeadlineNoLongerApplies() throws Exception {
        Errand errand = eventNode();
        long id = errand.enqueue(TaskRequest.builder("receipt", 1)
                        .condition(Condition.on("quick").timeout(Duration.ofMinutes(1)))
                        .condition("other")
                        .build())
                .id();
        errand.triggerEvent("quick");
        clock.advance(Duration.ofMinutes(2));
        assertThat(Nodes.of(errand).expireOverdueTasks()).isZero();
        assertThat(task(errand, id).state()).isEqualTo(TaskState.WAITING);
    }

    @Test
    void aRetryDoesNotExtendTheDeadlineAndAnExpiredTaskIsNeverClaimed() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        Errand errand = node(builder()
                .register(TaskDefinition.builder("flaky", Integer.class, (n, ctx) -> {
                            attempts.incrementAndGet();
                            throw new IllegalStateException("partner down");
                        })
                        .retryPolicy(dev.errand.retry.RetryPolicy.fixed(Duration.ofMinutes(10)))
                        .maxAttempts(5)
                        .onFailure((failed, c) -> causes.add(failed.cause()))
                        .build()));
        long id = errand.enqueue(TaskRequest.builder("flaky", 1)
                        .expiresIn(Duration.ofMinutes(5))
                        .build())
                .id();
        errand.start();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> task(errand, id).attempt() == 1 && task(errand, id).state() == TaskState.PENDING);
        clock.advance(Duration.ofMinutes(11));
        // Due for its retry and past its deadline: the poller must leave it alone.
        Thread.sleep(500);
        assertThat(attempts).hasValue(1);
        assertThat(Nodes.of(errand).expireOverdueTasks()).isEqualTo(1);
        assertThat(task(errand, id).state()).isEqualTo(TaskState.FAILED);
        assertThat(errorAttempts(task(errand, id))).hasSize(2);
        assertThat(causes).singleElement().isInstanceOf(FailureCause.Expired.class);
    }

    @Test
    void theFailureCallbackTellsTheHandlersExceptionALostWorkerAndAnExpiryApart() throws Exception {
        Map<Long, FailureCause> byTask = new ConcurrentHashMap<>();
        Errand errand = node(builder()
                .register(TaskDefinition.builder("three", Integer.class, (n, ctx) -> {
                            throw new IllegalArgumentException("bad order " + n);
                        })
                        .maxAttempts(1)
                        .onFailure((failed, c) -> byTask.put(failed.id(), failed.cause()))
                        .build()));
        long thrown = errand.enqueue(TaskRequest.of("three", 1)).id();
        long lost = errand.enqueue(TaskRequest.builder("three", 2)
                        .runAt(Instant.now().plus(Duration.ofDays(1)))
                        .build())
                .id();
        long expired = errand.enqueue(TaskRequest.builder("three", 3)
                        .condition("x")
                        .expiresIn(Duration.ofMinutes(1))
                        .build())
                .id();
        errand.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> byTask.containsKey(thrown));
        try (Connection c = dataSource().getConnection();
                var s = c.createStatement()) {
            s.executeUpdate("UPDATE " + prefix + "task SET state = 'running', attempt = 1, lease_owner = 'dead-node',"
                    + " lease_token = 42, lease_expires_at = " + database.nowSql() + " WHERE id = " + lost);
        }
        clock.advance(Duration.ofMinutes(2));
        // The running poller's claim may hold the row for a moment (MariaDB locks what its claim scans), and
        // rescue skips locked rows: sweep until the lost task is rescued.
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            Nodes.of(errand).rescueExpiredLeases();
            return byTask.containsKey(lost);
        });
        Nodes.of(errand).expireOverdueTasks();
        assertThat(byTask.get(thrown)).isInstanceOfSatisfying(FailureCause.HandlerFailed.class, failed -> {
            assertThat(failed.exceptionType()).isEqualTo(IllegalArgumentException.class.getName());
            assertThat(failed.message()).isEqualTo("bad order 1");
            assertThat(failed.exception()).isInstanceOf(IllegalArgumentException.class);
        });
        assertThat(byTask.get(lost)).isEqualTo(new FailureCause.WorkerLost("dead-node"));
        assertThat(byTask.get(expired)).isInstanceOf(FailureCause.Expired.class);
    }

    @Test
    void namedExceptionsKeepTheAttemptsWritesEvenOnTheLastAttempt() throws Exception {
        Errand errand = node(builder()
                .register(TaskDefinition.builder("partial", Integer.class, (n, ctx) -> {
                            recordEffect(ctx.connection(), ctx.taskId(), "attempt-" + ctx.attempt());
                            throw new PartialFailure("gateway refused part " + ctx.attempt());
                        })
                        .commitWritesOn(PartialFailure.class)
                        .retryPolicy(dev.errand.retry.RetryPolicy.fixed(Duration.ZERO))
                        .maxAttempts(2)
                        .onFailure((failed, c) -> {
                            causes.add(failed.cause());
                            recordEffect(c, failed.id(), "callback");
                        })
                        .build())
                .register(TaskDefinition.builder("rolled-back", Integer.class, (n, ctx) -> {
                            recordEffect(ctx.connection(), ctx.taskId(), "lost");
                            throw new IllegalStateException("not named");
                        })
                        .commitWritesOn(PartialFailure.class)
                        .maxAttempts(1)
                        .build()));
        long id = errand.enqueue(TaskRequest.of("partial", 1)).id();
        long other = errand.enqueue(TaskRequest.of("rolled-back", 1)).id();
        errand.start();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> task(errand, id).state() == TaskState.FAILED
                        && task(errand, other).state() == TaskState.FAILED);
        assertThat(effectNotes()).containsExactlyInAnyOrder("attempt-1", "attempt-2", "callback");
        assertThat(errorAttempts(task(errand, id))).containsExactly(1, 2);
        assertThat(causes).singleElement().isInstanceOfSatisfying(FailureCause.HandlerFailed.class, failed -> {
            assertThat(failed.exceptionType()).isEqualTo(PartialFailure.class.getName());
        });
    }

    @Test
    void retryLaterWithCommitKeepsTheWritesOfTheLastAttempt() throws Exception {
        Errand errand = node(builder()
                .register(TaskDefinition.builder("last", Integer.class, (n, ctx) -> {
                            recordEffect(ctx.connection(), ctx.taskId(), "kept");
                            throw dev.errand.task.RetryLater.after(Duration.ofMinutes(1), "not yet")
                                    .commitWrites();
                        })
                        .maxAttempts(1)
                        .build()));
        long id = errand.enqueue(TaskRequest.of("last", 1)).id();
        errand.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> task(errand, id).state() == TaskState.FAILED);
        assertThat(effectNotes()).containsExactly("kept");
    }

    @Test
    void twoTriggersThatCompleteTheSameTasksAtOnceReleaseEveryOne() throws Exception {
        Errand errand = eventNode();
        List<TaskRequest> requests = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            requests.add(waitingFor(i, "left", "right"));
        }
        errand.enqueueAll(requests);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Triggered> left = pool.submit(() -> errand.triggerEvent("left"));
            Future<Triggered> right = pool.submit(() -> errand.triggerEvent("right"));
            assertThat(left.get().releasedTasks() + right.get().releasedTasks()).isEqualTo(50);
        } finally {
            pool.shutdownNow();
        }
        assertThat(tasksIn(TaskState.PENDING)).isEqualTo(50);
    }

    @Test
    void racingEnqueuesAndTriggersNeverLoseAnEvent() throws Exception {
        Errand errand = eventNode();
        int threads = 6;
        int names = 12;
        int operations = 40;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> futures = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    for (int i = 0; i < operations; i++) {
                        String event = "race-" + random.nextInt(names);
                        if (random.nextBoolean()) {
                            errand.enqueue(waitingFor(i, event));
                        } else {
                            errand.triggerEvent(event);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> future : futures) {
                future.get();
            }
        } finally {
            pool.shutdownNow();
        }
        // No event is both stored as premature and waited for: one of the two would have seen the other.
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "premature_event p WHERE EXISTS (SELECT 1 FROM " + prefix
                        + "task_condition c WHERE c.event = p.event)"))
                .isZero();
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task WHERE state = 'waiting' AND NOT EXISTS"
                        + " (SELECT 1 FROM " + prefix + "task_condition c WHERE c.task_id = " + prefix + "task.id)"))
                .as("waiting tasks with nothing left to wait for")
                .isZero();
        // Every waiting task waits for an event that was not triggered after it was enqueued.
        for (WaitingTask waiting : errand.events().waiting(10_000)) {
            assertThat(waiting.openConditions()).hasSize(1);
        }
    }

    @Test
    void theEventApiRefusesBadArgumentsWithWhatToDo() {
        Errand errand = eventNode();
        assertThatThrownBy(() -> errand.triggerEvent(null, "e")).hasMessageContaining("connection must not be null");
        assertThatThrownBy(() -> errand.triggerEvent("")).hasMessageContaining("Event name");
        assertThatThrownBy(() -> errand.events().waiting(0)).hasMessageContaining("between 1 and 10000");
        assertThatThrownBy(() -> errand.events().waitingFor("e", 10_001)).hasMessageContaining("between 1 and 10000");
        assertThatThrownBy(() -> errand.events().premature(-1)).hasMessageContaining("between 1 and 10000");
        assertThatThrownBy(() -> errand.events().deletePremature("x".repeat(300)))
                .hasMessageContaining("at most 255");
        assertThatThrownBy(() -> errand.events().deletePrematureOlderThan(Duration.ofSeconds(-1)))
                .hasMessageContaining("zero or more");
    }

    /** An exception that fails the attempt but keeps its writes. */
    static final class PartialFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        PartialFailure(String message) {
            super(message);
        }
    }
}
