package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.admin.Page;
import dev.errand.enqueue.TaskRequest;
import dev.errand.history.Attempt;
import dev.errand.history.AttemptOutcome;
import dev.errand.history.AttemptQuery;
import dev.errand.internal.node.Nodes;
import dev.errand.retry.RetryPolicy;
import dev.errand.task.ExecutionMode;
import dev.errand.task.Snooze;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/** The attempt history: a row per ended attempt, written with the outcome, searchable and pruned. */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class HistoryContractTest extends ErrandTestSupport {

    private final AtomicInteger sleepyRuns = new AtomicInteger();

    HistoryContractTest(Target target) {
        super(target);
    }

    private Errand historyNode() {
        return node(builder()
                .historyEnabled(true)
                // slow on purpose: a run time the history can show
                .register(TaskDefinition.builder("tx-ok", Integer.class, (n, ctx) -> Thread.sleep(20))
                        .build())
                .register(TaskDefinition.builder("plain-ok", Integer.class, (n, ctx) -> {})
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build())
                .register(TaskDefinition.builder("flaky", Integer.class, (n, ctx) -> {
                            if (ctx.attempt() < 3) {
                                throw new IllegalStateException("gateway said no, attempt " + ctx.attempt());
                            }
                        })
                        .retryPolicy(RetryPolicy.fixed(Duration.ZERO))
                        .maxAttempts(3)
                        .build())
                .register(TaskDefinition.builder("doomed", Integer.class, (n, ctx) -> {
                            throw new IllegalArgumentException("bad input " + n);
                        })
                        .maxAttempts(1)
                        .build())
                .register(TaskDefinition.builder("sleepy", Integer.class, (n, ctx) -> {
                            // A snooze gives the attempt back, so count the runs here.
                            if (sleepyRuns.incrementAndGet() == 1) {
                                throw Snooze.by(Duration.ZERO);
                            }
                        })
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build()));
    }

    @Test
    void everyEndedAttemptIsRecordedWithItsOutcomeAndTheTaskRowGoes() throws Exception {
        Errand errand = historyNode();
        long tx = errand.enqueue(TaskRequest.of("tx-ok", 1)).id();
        long plain = errand.enqueue(TaskRequest.of("plain-ok", 1)).id();
        long flaky = errand.enqueue(TaskRequest.of("flaky", 1)).id();
        long doomed = errand.enqueue(TaskRequest.of("doomed", 7)).id();
        long sleepy = errand.enqueue(TaskRequest.of("sleepy", 1)).id();
        errand.start();
        await().atMost(Duration.ofSeconds(15)).until(() -> taskRows() == 1 && tasksIn(TaskState.FAILED) == 1);

        assertThat(errand.history().attempts(tx)).singleElement().satisfies(attempt -> {
            assertThat(attempt.outcome()).isEqualTo(AttemptOutcome.SUCCEEDED);
            assertThat(attempt.kind()).isEqualTo("tx-ok");
            assertThat(attempt.queue()).isEqualTo("default");
            assertThat(attempt.attempt()).isEqualTo(1);
            assertThat(attempt.node()).isNotBlank();
            assertThat(attempt.duration()).isGreaterThanOrEqualTo(Duration.ofMillis(15));
            assertThat(attempt.startedAt()).isBefore(attempt.finishedAt());
            assertThat(attempt.error()).isNull();
        });
        // A non-transactional success is recorded with its batched completion (on PostgreSQL in its statement).
        assertThat(errand.history().attempts(plain)).singleElement().satisfies(attempt -> {
            assertThat(attempt.outcome()).isEqualTo(AttemptOutcome.SUCCEEDED);
            assertThat(attempt.kind()).isEqualTo("plain-ok");
            assertThat(attempt.queue()).isEqualTo("default");
            assertThat(attempt.attempt()).isEqualTo(1);
            assertThat(attempt.node())
                    .isEqualTo(errand.history().attempts(tx).get(0).node());
            assertThat(attempt.duration()).isNotNull();
            assertThat(attempt.startedAt()).isBeforeOrEqualTo(attempt.finishedAt());
            assertThat(attempt.error()).isNull();
        });
        List<Attempt> flakyAttempts = errand.history().attempts(flaky);
        assertThat(flakyAttempts)
                .extracting(Attempt::outcome)
                .containsExactly(AttemptOutcome.RETRIED, AttemptOutcome.RETRIED, AttemptOutcome.SUCCEEDED);
        assertThat(flakyAttempts).extracting(Attempt::attempt).containsExactly(1, 2, 3);
        assertThat(flakyAttempts.get(1).error()).satisfies(error -> {
            assertThat(error.type()).isEqualTo(IllegalStateException.class.getName());
            assertThat(error.message()).isEqualTo("gateway said no, attempt 2");
            assertThat(error.stackTrace()).contains("IllegalStateException").contains("at ");
        });
        assertThat(errand.history().attempts(doomed)).singleElement().satisfies(attempt -> {
            assertThat(attempt.outcome()).isEqualTo(AttemptOutcome.FAILED);
            assertThat(attempt.error().message()).isEqualTo("bad input 7");
        });
        assertThat(errand.history().attempts(sleepy))
                .extracting(Attempt::outcome, Attempt::attempt)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(AttemptOutcome.SNOOZED, 1),
                        org.assertj.core.groups.Tuple.tuple(AttemptOutcome.SUCCEEDED, 1));

        // The hot table keeps only the failed task; the history keeps every attempt.
        assertThat(taskRows()).isEqualTo(1);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task_attempt")).isEqualTo(8);
    }

    @Test
    void aSuccessWhoseLeaseWasTakenBackBeforeItsCompletionLeavesNoSuccessRow() throws Exception {
        // PostgreSQL writes the row in the completion's statement; MariaDB and H2 lock the live rows first.
        Errand errand = node(builder()
                .historyEnabled(true)
                .register(TaskDefinition.builder("taken-back", Integer.class, (n, ctx) -> takeLeaseBack(ctx.taskId()))
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build()));
        long id = errand.enqueue(TaskRequest.of("taken-back", 1)).id();
        errand.start();
        await().atMost(Duration.ofSeconds(15)).until(() -> errand.stats().fencedOff() == 1);

        assertThat(errand.history().attempts(id)).isEmpty();
        assertThat(tasksIn(TaskState.RUNNING)).isEqualTo(1);
    }

    @Test
    void aSuccessWithAContinuationWhoseLeaseWasTakenBackLeavesNoSuccessRowAndNoContinuation() throws Exception {
        Errand errand = node(builder()
                .historyEnabled(true)
                .register(TaskDefinition.builder("taken-back-next", Integer.class, (n, ctx) -> {
                            ctx.continueWith("taken-back-next", n + 1);
                            takeLeaseBack(ctx.taskId());
                        })
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build()));
        long id = errand.enqueue(TaskRequest.of("taken-back-next", 1)).id();
        errand.start();
        await().atMost(Duration.ofSeconds(15)).until(() -> errand.stats().fencedOff() == 1);

        assertThat(errand.history().attempts(id)).isEmpty();
        assertThat(taskRows()).as("no continuation of the fenced success").isEqualTo(1);
    }

    /** Another node's rescue takes the lease while the handler still runs. */
    private void takeLeaseBack(long taskId) throws java.sql.SQLException {
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE " + prefix + "task SET lease_token = lease_token + 1000 WHERE id = " + taskId);
        }
    }

    @Test
    void aRescuedAndAnExpiredTaskLeaveTheirMarks() throws Exception {
        Errand errand = node(builder()
                .historyEnabled(true)
                .register(TaskDefinition.builder("orphan", Integer.class, (n, ctx) -> {})
                        .build())
                .register(TaskDefinition.builder("late", Integer.class, (n, ctx) -> {})
                        .build()));
        long orphan = errand.enqueue(TaskRequest.of("orphan", 1)).id();
        long late = errand.enqueue(TaskRequest.builder("late", 1)
                        .condition("never")
                        .expiresIn(Duration.ofMinutes(1))
                        .build())
                .id();
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE " + prefix + "task SET state = 'running', attempt = 1, lease_owner = 'dead-node',"
                    + " lease_token = 42, lease_expires_at = " + database.nowSql() + " WHERE id = " + orphan);
        }
        clock.advance(Duration.ofMinutes(2));
        assertThat(Nodes.of(errand).rescueExpiredLeases()).isEqualTo(1);
        assertThat(Nodes.of(errand).expireOverdueTasks()).isEqualTo(1);

        assertThat(errand.history().attempts(orphan)).singleElement().satisfies(attempt -> {
            assertThat(attempt.outcome()).isEqualTo(AttemptOutcome.RETRIED);
            assertThat(attempt.error().type()).isEqualTo("WorkerLost");
            assertThat(attempt.error().message()).contains("dead-node");
            assertThat(attempt.duration()).isNull();
        });
        assertThat(errand.history().attempts(late)).singleElement().satisfies(attempt -> {
            assertThat(attempt.outcome()).isEqualTo(AttemptOutcome.EXPIRED);
            assertThat(attempt.attempt()).isZero();
            assertThat(attempt.error().type()).isEqualTo("Expired");
        });
    }

    @Test
    void theHistoryIsSearchedByKindOutcomeTimeAndErrorTextInPages() throws Exception {
        Errand errand = historyNode();
        List<TaskRequest> requests = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            requests.add(TaskRequest.of("doomed", i));
            requests.add(TaskRequest.of("plain-ok", i));
        }
        errand.enqueueAll(requests);
        errand.start();
        await().atMost(Duration.ofSeconds(15)).until(() -> taskRows() == 5 && tasksIn(TaskState.FAILED) == 5);

        Page<Attempt> failed = errand.history()
                .search(AttemptQuery.builder()
                        .kind("doomed")
                        .outcome(AttemptOutcome.FAILED)
                        .limit(2)
                        .build());
        assertThat(failed.total()).isEqualTo(5);
        assertThat(failed.items()).hasSize(2);
        assertThat(errand.history()
                        .search(AttemptQuery.builder()
                                .errorContains("bad input 3")
                                .build())
                        .items())
                .singleElement()
                .satisfies(attempt -> assertThat(attempt.error().message()).isEqualTo("bad input 3"));
        assertThat(errand.history()
                        .search(AttemptQuery.builder()
                                .errorContains("100%_sure")
                                .build())
                        .total())
                .isZero();
        Instant now = databaseNow().plus(clock.offset());
        assertThat(errand.history()
                        .search(AttemptQuery.builder()
                                .finishedBetween(now.minusSeconds(60), now.plusSeconds(60))
                                .build())
                        .total())
                .isEqualTo(10);
        assertThat(errand.history()
                        .search(AttemptQuery.builder()
                                .finishedBetween(null, now.minusSeconds(60))
                                .build())
                        .total())
                .isZero();
    }

    @Test
    void aSearchCanBeKeptToTheAttemptsThatFinishedRecentlyOnTheDatabaseClock() throws Exception {
        Errand errand = historyNode();
        errand.enqueue(TaskRequest.of("doomed", 1));
        errand.start();
        await().atMost(Duration.ofSeconds(15)).until(() -> tasksIn(TaskState.FAILED) == 1);
        clock.advance(Duration.ofHours(2));
        errand.enqueue(TaskRequest.of("doomed", 2));
        await().atMost(Duration.ofSeconds(15)).until(() -> tasksIn(TaskState.FAILED) == 2);

        Page<Attempt> lastHour = errand.history()
                .search(AttemptQuery.builder()
                        .errorContains("bad input")
                        .finishedWithin(Duration.ofHours(1))
                        .build());
        assertThat(lastHour.items())
                .singleElement()
                .satisfies(attempt -> assertThat(attempt.error().message()).isEqualTo("bad input 2"));
        assertThat(lastHour.total()).isEqualTo(1);
        assertThat(errand.history()
                        .search(AttemptQuery.builder()
                                .errorContains("bad input")
                                .finishedWithin(Duration.ofHours(3))
                                .build())
                        .total())
                .isEqualTo(2);
        assertThatThrownBy(() -> AttemptQuery.builder().finishedWithin(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("finishedWithin must be a positive duration");
        assertThatThrownBy(() -> AttemptQuery.builder().finishedWithin(null))
                .hasMessageContaining("finishedWithin must be a positive duration");
        assertThatThrownBy(() -> AttemptQuery.builder().finishedWithin(Duration.ofDays(36_501)))
                .hasMessageContaining("36500");
    }

    @Test
    void oldAttemptsArePrunedByHandAndByTheNodeAfterTheRetention() throws Exception {
        Errand errand = node(builder()
                .historyEnabled(true)
                .historyRetention(Duration.ofHours(1))
                .pruneInterval(Duration.ofSeconds(1))
                .register(TaskDefinition.builder("plain-ok", Integer.class, (n, ctx) -> {})
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build()));
        errand.enqueue(TaskRequest.of("plain-ok", 1));
        errand.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> taskRows() == 0);
        assertThat(errand.history().prune(Duration.ofMinutes(5))).isZero();
        clock.advance(Duration.ofMinutes(10));
        errand.enqueue(TaskRequest.of("plain-ok", 2));
        await().atMost(Duration.ofSeconds(10)).until(() -> taskRows() == 0);
        assertThat(errand.history().prune(Duration.ofMinutes(5))).isEqualTo(1);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task_attempt")).isEqualTo(1);

        clock.advance(Duration.ofHours(2));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> scalar("SELECT COUNT(*) FROM " + prefix + "task_attempt") == 0);
    }

    @Test
    void aPruneDeletesManyBatchesOfOldAttemptsAndKeepsTheYoungOnes() throws Exception {
        // A prune deletes AttemptHistory.PRUNE_BATCH attempts per transaction, oldest first, until none is left.
        int old = 2 * dev.errand.internal.history.AttemptHistory.PRUNE_BATCH + 500;
        // Built first: building runs the migrations.
        Errand errand = node(builder()
                .historyEnabled(true)
                .register(TaskDefinition.builder("plain-ok", Integer.class, (n, ctx) -> {})
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build()));
        try (Connection c = dataSource().getConnection();
                java.sql.PreparedStatement insert = c.prepareStatement("INSERT INTO " + prefix + "task_attempt"
                        + " (task_id, kind, queue, attempt, finished_at, outcome) VALUES (?, 'plain-ok', 'default', 1,"
                        + " CURRENT_TIMESTAMP, 'succeeded')")) {
            c.setAutoCommit(false);
            for (int n = 0; n < old; n++) {
                insert.setLong(1, 1_000_000L + n);
                insert.addBatch();
            }
            insert.executeBatch();
            c.commit();
        }
        clock.advance(Duration.ofHours(2));
        long young = errand.enqueue(TaskRequest.of("plain-ok", 1)).id();
        errand.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> taskRows() == 0);

        assertThat(errand.history().prune(Duration.ofHours(1))).isEqualTo(old);
        assertThat(errand.history().search(AttemptQuery.builder().build()).items())
                .extracting(Attempt::taskId)
                .containsExactly(young);
        assertThat(errand.history().prune(Duration.ofHours(1))).isZero();
    }

    @Test
    void eachAttemptKeepsTheLinesItsHandlerWroteAndConcurrentHandlersNeverMix() throws Exception {
        java.util.concurrent.CountDownLatch together = new java.util.concurrent.CountDownLatch(4);
        Errand errand = node(builder()
                .historyEnabled(true)
                .queue("default", 4)
                .register(TaskDefinition.builder("chatty", Integer.class, (n, ctx) -> {
                            together.countDown();
                            together.await(5, java.util.concurrent.TimeUnit.SECONDS);
                            for (int line = 0; line < 50; line++) {
                                ctx.log("task " + n + " line " + line);
                            }
                            if (ctx.attempt() == 1) {
                                throw new IllegalStateException("first attempt of " + n + " fails");
                            }
                        })
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .retryPolicy(RetryPolicy.fixed(Duration.ZERO))
                        .build()));
        List<Long> ids = new ArrayList<>();
        for (int n = 0; n < 4; n++) {
            ids.add(errand.enqueue(TaskRequest.of("chatty", n)).id());
        }
        errand.start();
        await().atMost(Duration.ofSeconds(15)).until(() -> taskRows() == 0);
        for (int n = 0; n < 4; n++) {
            List<Attempt> attempts = errand.history().attempts(ids.get(n));
            assertThat(attempts).hasSize(2);
            for (Attempt attempt : attempts) {
                String[] lines = attempt.logs().split("\n");
                assertThat(lines).hasSize(50);
                String own = "task " + n + " ";
                assertThat(lines).allSatisfy(line -> assertThat(line).startsWith(own));
            }
        }
    }

    @Test
    void historyIsOffByDefault() throws Exception {
        // It costs about a quarter to a third of burn-down throughput (docs/BENCHMARKS.md): opt in.
        Errand errand = node(builder()
                .register(TaskDefinition.builder("doomed", Integer.class, (n, ctx) -> {
                            throw new IllegalStateException("no");
                        })
                        .maxAttempts(1)
                        .build())
                .register(TaskDefinition.builder("plain-ok", Integer.class, (n, ctx) -> {})
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build()));
        long id = errand.enqueue(TaskRequest.of("doomed", 1)).id();
        errand.enqueue(TaskRequest.of("plain-ok", 1));
        errand.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> taskRows() == 1 && tasksIn(TaskState.FAILED) == 1);
        assertThat(errand.history().attempts(id)).isEmpty();
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task_attempt")).isZero();
    }

    @Test
    void theHistoryApiRefusesBadArguments() {
        Errand errand = historyNode();
        assertThatThrownBy(() -> errand.history().attempts(0)).hasMessageContaining("positive");
        assertThatThrownBy(() -> errand.history().search(null)).hasMessageContaining("AttemptQuery.builder()");
        assertThatThrownBy(() -> errand.history().prune(Duration.ofSeconds(-1))).hasMessageContaining("zero or more");
        assertThatThrownBy(() -> AttemptQuery.builder().limit(0)).hasMessageContaining("between 1 and 1000");
        assertThatThrownBy(() -> AttemptQuery.builder().errorContains(" ")).hasMessageContaining("non-blank");
        Instant now = Instant.now();
        assertThatThrownBy(() -> AttemptQuery.builder().finishedBetween(now, now))
                .hasMessageContaining("must be after its start");
        assertThat(errand.history().search(AttemptQuery.builder().build()).items())
                .isEmpty();
    }
}
