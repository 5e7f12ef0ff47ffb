package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.internal.node.Nodes;
import dev.errand.retry.RetryPolicy;
import dev.errand.task.ExecutionMode;
import dev.errand.task.Snooze;
import dev.errand.task.Task;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile but realistic input at run time: errors that are not exceptions, texts the database refuses,
 * rows with absurd values, handlers that misuse their transaction, a pool smaller than the concurrency,
 * and a handler that snoozes. In every case the engine keeps running, the real error is recorded on the
 * row at once, and nothing runs twice.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class HostileRuntimeContractTest extends ErrandTestSupport {

    HostileRuntimeContractTest(Target target) {
        super(target);
    }

    private Task awaitState(Errand errand, long id, TaskState state) {
        await().atMost(Duration.ofSeconds(15)).until(() -> task(errand, id).state() == state);
        return task(errand, id);
    }

    private Task awaitAttemptRecorded(Errand errand, long id, int attempt) {
        await().atMost(Duration.ofSeconds(15)).until(() -> {
            Task task = task(errand, id);
            return task.attempt() == attempt && task.state() == TaskState.PENDING && task.lastError() != null;
        });
        return task(errand, id);
    }

    @Test
    void errorsThatAreNotExceptionsAreRecordedAtOnceAsFailedAttempts() throws Exception {
        Errand errand = node(builder()
                .register(TaskDefinition.builder("overflow", Integer.class, (n, ctx) -> recurse(n))
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .retryPolicy(RetryPolicy.fixed(Duration.ofHours(1)))
                        .build())
                .register(TaskDefinition.builder("internal", Integer.class, (n, ctx) -> {
                            recordEffect(ctx.connection(), ctx.taskId(), "rolled back");
                            throw new InternalError("simulated VM trouble");
                        })
                        .retryPolicy(RetryPolicy.fixed(Duration.ofHours(1)))
                        .build()));
        long overflow = errand.enqueue(TaskRequest.of("overflow", 1)).id();
        long internal = errand.enqueue(TaskRequest.of("internal", 1)).id();
        errand.start();

        // Recorded within seconds by this same node, not a minute later as a lost worker.
        assertThat(awaitAttemptRecorded(errand, overflow, 1).lastError())
                .contains("StackOverflowError")
                .doesNotContain("Worker lost");
        assertThat(awaitAttemptRecorded(errand, internal, 1).lastError())
                .contains("InternalError", "simulated VM trouble");
        assertThat(effects())
                .as("the transactional attempt's writes rolled back")
                .isZero();
        assertThat(errand.health().healthy()).isTrue();
    }

    private static int recurse(int depth) {
        return recurse(depth + 1) + 1;
    }

    @Test
    void exceptionMessagesWithNulOrThatThrowAreRecorded() throws Exception {
        Errand errand = node(builder()
                .register(TaskDefinition.builder("nul", Integer.class, (n, ctx) -> {
                            throw new IllegalStateException("bad\u0000byte in message");
                        })
                        .maxAttempts(1)
                        .build())
                .register(TaskDefinition.builder("throwing-message", Integer.class, (n, ctx) -> {
                            throw new IllegalStateException() {
                                @Override
                                public String getMessage() {
                                    throw new UnsupportedOperationException("no message for you");
                                }
                            };
                        })
                        .maxAttempts(1)
                        .build()));
        long nul = errand.enqueue(TaskRequest.of("nul", 1)).id();
        long throwing = errand.enqueue(TaskRequest.of("throwing-message", 1)).id();
        errand.start();

        Task withNul = awaitState(errand, nul, TaskState.FAILED);
        assertThat(withNul.lastError())
                .contains("bad", "byte in message")
                .doesNotContain("\u0000")
                .doesNotContain("Worker lost");
        Task withThrowingMessage = awaitState(errand, throwing, TaskState.FAILED);
        assertThat(withThrowingMessage.lastError())
                .contains("could not be read", "UnsupportedOperationException")
                .doesNotContain("Worker lost");
    }

    @Test
    void aFailureCallbackThatThrowsAnErrorStillFailsItsTaskAndRescueGoesOn() throws Exception {
        AtomicInteger callbacks = new AtomicInteger();
        Errand errand = node(builder()
                .register(TaskDefinition.builder("callback-overflows", Integer.class, (n, ctx) -> {
                            throw new IllegalStateException("handler failed");
                        })
                        .maxAttempts(1)
                        .onFailure((task, connection) -> {
                            callbacks.incrementAndGet();
                            recurse(0);
                        })
                        .build())
                .register(TaskDefinition.builder("callback-asserts", Integer.class, (n, ctx) -> {
                            throw new IllegalStateException("handler failed");
                        })
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .maxAttempts(1)
                        .onFailure((task, connection) -> {
                            callbacks.incrementAndGet();
                            throw new AssertionError("callback asserted");
                        })
                        .build()));
        long overflows = errand.enqueue(TaskRequest.of("callback-overflows", 1)).id();
        errand.start();
        Task failed = awaitState(errand, overflows, TaskState.FAILED);
        assertThat(failed.lastError())
                .contains("handler failed", "Failure callback failed: java.lang.StackOverflowError");

        // Two rows whose worker was lost on their last attempt: rescue fails them, and both callbacks throw.
        errand.stop();
        long first = errand.enqueue(TaskRequest.of("callback-asserts", 1)).id();
        long second = errand.enqueue(TaskRequest.of("callback-asserts", 2)).id();
        execute("UPDATE " + prefix + "task SET state = 'running', attempt = 1, lease_owner = 'ghost-node',"
                + " lease_token = 7, started_at = created_at, lease_expires_at = created_at WHERE id IN (" + first
                + ", " + second + ")");
        clock.advance(Duration.ofMinutes(1));
        Errand rescuer = node(builder()
                .register(TaskDefinition.builder("callback-asserts", Integer.class, (n, ctx) -> {})
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .maxAttempts(1)
                        .onFailure((task, connection) -> {
                            callbacks.incrementAndGet();
                            throw new AssertionError("callback asserted");
                        })
                        .build()));
        assertThatCode(Nodes.of(rescuer)::rescueExpiredLeases).doesNotThrowAnyException();
        assertThat(task(rescuer, first).state()).isEqualTo(TaskState.FAILED);
        assertThat(task(rescuer, second).state()).isEqualTo(TaskState.FAILED);
        assertThat(task(rescuer, first).lastError()).contains("Failure callback failed", "callback asserted");
        assertThat(callbacks.get()).isGreaterThanOrEqualTo(3);
        assertThat(Nodes.of(rescuer).rescueExpiredLeases())
                .as("rescue still works, with nothing left")
                .isZero();
    }

    @Test
    void aRowWithTheLargestAttemptNumberDoesNotStallItsQueue() throws Exception {
        List<Integer> ran = new ArrayList<>();
        Errand errand = node(builder()
                .register(TaskDefinition.builder("count", Integer.class, (n, ctx) -> {
                            synchronized (ran) {
                                ran.add(n);
                            }
                        })
                        .build()));
        long absurd = errand.enqueue(TaskRequest.of("count", 1)).id();
        execute("UPDATE " + prefix + "task SET attempt = 2147483647 WHERE id = " + absurd);
        long normal = errand.enqueue(TaskRequest.of("count", 2)).id();
        errand.start();

        await().atMost(Duration.ofSeconds(15))
                .until(() -> errand.admin().find(normal).isEmpty());
        await().atMost(Duration.ofSeconds(15)).until(() -> errand.admin()
                .find(absurd)
                .map(task -> task.state() != TaskState.PENDING && task.state() != TaskState.RUNNING)
                .orElse(true));
        assertThat(ran).contains(2);
        assertThat(errand.health().healthy()).isTrue();
    }

    @Test
    void aHandlerThatEndsItsTransactionFailsTheAttemptAndKeepsNoWrite() throws Exception {
        Errand errand = node(builder()
                .register(TaskDefinition.builder("commits", Integer.class, (n, ctx) -> {
                            recordEffect(ctx.connection(), ctx.taskId(), "written before commit");
                            try {
                                ctx.connection().commit();
                            } catch (IllegalStateException swallowed) {
                                // A handler that swallows the refusal still fails its attempt.
                            }
                        })
                        .maxAttempts(2)
                        .retryPolicy(RetryPolicy.fixed(Duration.ZERO))
                        .build())
                .register(TaskDefinition.builder("rolls-back", Integer.class, (n, ctx) -> {
                            recordEffect(ctx.connection(), ctx.taskId(), "written before rollback");
                            ctx.connection().rollback();
                        })
                        .maxAttempts(1)
                        .build())
                .register(TaskDefinition.builder("closes", Integer.class, (n, ctx) -> {
                            ctx.connection().setAutoCommit(true);
                        })
                        .maxAttempts(1)
                        .build()));
        long commits = errand.enqueue(TaskRequest.of("commits", 1)).id();
        long rollsBack = errand.enqueue(TaskRequest.of("rolls-back", 1)).id();
        long closes = errand.enqueue(TaskRequest.of("closes", 1)).id();
        errand.start();

        assertThat(awaitState(errand, commits, TaskState.FAILED).lastError()).contains("Connection.commit()");
        assertThat(errorAttempts(task(errand, commits))).containsExactly(1, 2);
        assertThat(awaitState(errand, rollsBack, TaskState.FAILED).lastError()).contains("Connection.rollback()");
        assertThat(awaitState(errand, closes, TaskState.FAILED).lastError()).contains("Connection.setAutoCommit()");
        assertThat(effects()).as("no attempt's writes survived").isZero();
    }

    @Test
    void aPoolSmallerThanTheConcurrencyMakesTasksWaitButFailsNone() throws Exception {
        try (HikariDataSource small = database.newDataSource()) {
            small.setMaximumPoolSize(3);
            small.setConnectionTimeout(250);
            Errand errand = node(builder(small)
                    .queue("default", 20)
                    .register(TaskDefinition.builder("slow-write", Integer.class, (n, ctx) -> {
                                recordEffect(ctx.connection(), ctx.taskId(), "done");
                                Thread.sleep(20); // slow on purpose: the small pool stays busy
                            })
                            .maxAttempts(1)
                            .build()));
            List<TaskRequest> requests = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                requests.add(TaskRequest.of("slow-write", i));
            }
            errand.enqueueAll(requests);
            errand.start();

            await().atMost(Duration.ofSeconds(60)).until(() -> taskRows() == 0 || tasksIn(TaskState.FAILED) > 0);
            assertThat(tasksIn(TaskState.FAILED))
                    .as("tasks failed for want of a connection")
                    .isZero();
            assertThat(effects()).isEqualTo(60);
            assertThat(distinctEffects()).isEqualTo(60);
            errand.stop(Duration.ofSeconds(5));
        }
    }

    @Test
    void aSnoozeGivesItsAttemptBackAndRecordsNoError() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        Errand errand = node(builder()
                .register(TaskDefinition.builder("snoozes", Integer.class, (n, ctx) -> {
                            recordEffect(ctx.connection(), ctx.taskId(), "run " + runs.incrementAndGet());
                            if (runs.get() <= 3) {
                                throw Snooze.by(Duration.ofMinutes(10));
                            }
                        })
                        .maxAttempts(1)
                        .build()));
        long id = errand.enqueue(TaskRequest.of("snoozes", 1)).id();
        errand.start();

        for (int snooze = 1; snooze <= 3; snooze++) {
            int seen = snooze;
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> runs.get() == seen && task(errand, id).state() == TaskState.PENDING);
            Task snoozed = task(errand, id);
            assertThat(snoozed.attempt()).as("the attempt is given back").isZero();
            assertThat(snoozed.lastError()).isNull();
            assertThat(errorAttempts(snoozed)).isEmpty();
            Duration wait = Duration.between(databaseNow().plus(clock.offset()), snoozed.runAt());
            assertThat(wait).isBetween(Duration.ofMinutes(9), Duration.ofMinutes(10));
            clock.advance(Duration.ofMinutes(11));
        }
        // One attempt allowed, three snoozes, and still it runs to success.
        await().atMost(Duration.ofSeconds(10))
                .until(() -> errand.admin().find(id).isEmpty());
        assertThat(effectNotes()).as("snoozed attempts roll back their writes").containsExactly("run 4");
    }

    record Note(String text) {}

    @Test
    void aNulInThePayloadIsRefusedAtEnqueueOnEveryDatabaseAndNothingIsWritten() throws Exception {
        Errand errand = node(builder()
                .register(TaskDefinition.builder("note", Note.class, (n, ctx) -> {})
                        .build()));
        assertThatThrownBy(() -> errand.enqueue(TaskRequest.of("note", new Note("a\u0000b"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NUL");
        assertThatThrownBy(() -> errand.enqueueAll(
                        List.of(TaskRequest.of("note", new Note("fine")), TaskRequest.of("note", new Note("\u0000")))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NUL");
        assertThat(taskRows()).isZero();
    }

    @Test
    void enqueueAndEnqueueAllAcceptTheSameRunTimes() throws Exception {
        Errand errand = node(builder()
                .register(TaskDefinition.builder("count", Integer.class, (n, ctx) -> {})
                        .build()));
        Instant earliest = Instant.parse("1000-01-01T00:00:00Z");
        Instant latest = Instant.parse("9999-12-31T23:59:59Z");
        for (Instant runAt : List.of(earliest, latest)) {
            long alone = errand.enqueue(
                            TaskRequest.builder("count", 1).runAt(runAt).build())
                    .id();
            long batched = errand.enqueueAll(List.of(
                            TaskRequest.builder("count", 2).runAt(runAt).build(),
                            TaskRequest.builder("count", 3).runAt(runAt).build()))
                    .get(0)
                    .id();
            assertThat(task(errand, alone).runAt()).as("enqueue " + runAt).isEqualTo(runAt);
            assertThat(task(errand, batched).runAt()).as("enqueueAll " + runAt).isEqualTo(runAt);
        }
        assertThatThrownBy(() -> TaskRequest.builder("count", 1).runAt(latest.plusSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("runAt must be between");
    }

    private void execute(String sql) throws SQLException {
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        }
    }
}
