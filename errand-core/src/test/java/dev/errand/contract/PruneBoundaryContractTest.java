package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.admin.TaskCounts;
import dev.errand.enqueue.TaskRequest;
import dev.errand.process.ProcessDefinition;
import dev.errand.process.ProcessKind;
import dev.errand.process.ProcessRequest;
import dev.errand.process.ProcessState;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.function.ToIntFunction;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * No age and no instant deletes a row younger than asked: every prune of the admin, history, event and
 * process APIs is called with the boundary values of its argument on rows written seconds before. Each call
 * either deletes nothing or is refused with an {@link IllegalArgumentException} naming the accepted range;
 * none reaches the database with a cut-off its time arithmetic overflows (H2 wrapped around past about 292
 * years and deleted everything; PostgreSQL threw "timestamp out of range").
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class PruneBoundaryContractTest extends ErrandTestSupport {

    private static final Duration FOREVER = ChronoUnit.FOREVER.getDuration();

    /** Ages that reach further back than any row: each must delete nothing, or be refused. */
    private static final List<Duration> HUGE_AGES = List.of(
            Duration.ofDays(36_500),
            Duration.ofDays(36_500).plusNanos(1),
            Duration.ofDays(365L * 300),
            Duration.ofDays(365L * 1_000),
            Duration.ofDays(365L * 100_000),
            Duration.ofSeconds(Long.MAX_VALUE),
            FOREVER);

    /** Ages below zero: refused. */
    private static final List<Duration> NEGATIVE_AGES =
            List.of(Duration.ofNanos(-1), Duration.ofSeconds(-1), Duration.ofSeconds(Long.MIN_VALUE));

    private static final ProcessKind<Integer> NUMBERS = ProcessKind.of("numbers", Integer.class);

    PruneBoundaryContractTest(Target target) {
        super(target);
    }

    @Test
    void noAgeDeletesARowYoungerThanItAndOnlyZeroDeletesTheFreshRows() throws Exception {
        Errand errand = node(builder()
                .historyEnabled(true)
                .succeededRetention(Duration.ofDays(3650))
                .pruneInterval(Duration.ofHours(24))
                .register(TaskDefinition.builder("fine", Integer.class, (n, ctx) -> {})
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build())
                .register(TaskDefinition.builder("doomed", Integer.class, (n, ctx) -> {
                            throw new IllegalStateException("doomed " + n);
                        })
                        .maxAttempts(1)
                        .build())
                .registerProcess(ProcessDefinition.simple(NUMBERS, (items, ctx) -> {})));
        errand.enqueue(TaskRequest.of("fine", 1));
        errand.enqueue(TaskRequest.of("doomed", 2));
        long cancelled = errand.enqueue(TaskRequest.builder("fine", 3)
                        .delay(Duration.ofHours(1))
                        .build())
                .id();
        assertThat(errand.admin().cancel(cancelled)).isTrue();
        errand.triggerEvent("nobody-waits");
        String process = errand.processes().start(ProcessRequest.of(NUMBERS, List.of(1, 2, 3)));
        errand.start();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> tasksIn(TaskState.SUCCEEDED) >= 2
                        && tasksIn(TaskState.FAILED) == 1
                        && errand.processes().find(process).orElseThrow().state() == ProcessState.SUCCEEDED);
        errand.stop(Duration.ofSeconds(5));
        // Due since a minute ago, on a queue nobody claims from any more: pending, and overdue after 30 s.
        errand.enqueue(TaskRequest.builder("fine", 4)
                .runAt(databaseNow().minusSeconds(60))
                .build());
        Rows fresh = rows(errand);
        assertThat(fresh.succeeded()).isPositive();
        assertThat(fresh.failed()).isEqualTo(1);
        assertThat(fresh.cancelled()).isEqualTo(1);
        assertThat(fresh.attempts()).isPositive();
        assertThat(fresh.premature()).isEqualTo(1);
        assertThat(fresh.processes()).isEqualTo(1);

        List<Prune> prunes = List.of(
                new Prune("pruneSucceeded", age -> errand.admin().pruneSucceeded(age)),
                new Prune("pruneFinished(SUCCEEDED)", age -> errand.admin().pruneFinished(TaskState.SUCCEEDED, age)),
                new Prune("pruneFinished(FAILED)", age -> errand.admin().pruneFinished(TaskState.FAILED, age)),
                new Prune("pruneFinished(CANCELLED)", age -> errand.admin().pruneFinished(TaskState.CANCELLED, age)),
                new Prune("history().prune", age -> errand.history().prune(age)),
                new Prune("events().deletePrematureOlderThan", age -> errand.events()
                        .deletePrematureOlderThan(age)));
        for (Prune prune : prunes) {
            for (Duration age : HUGE_AGES) {
                int deleted;
                try {
                    deleted = prune.call().applyAsInt(age);
                } catch (IllegalArgumentException refused) {
                    assertThat(refused.getMessage())
                            .as(prune.name() + "(" + age + ")")
                            .contains("36500 days")
                            .hasSizeLessThan(400);
                    deleted = 0;
                }
                assertThat(deleted).as(prune.name() + "(" + age + ")").isZero();
                assertThat(rows(errand)).as(prune.name() + "(" + age + ")").isEqualTo(fresh);
            }
            for (Duration age : NEGATIVE_AGES) {
                assertRefused(() -> prune.call().applyAsInt(age), prune.name() + "(" + age + ")", "zero");
            }
            assertRefused(() -> prune.call().applyAsInt(null), prune.name() + "(null)", "zero");
            assertThat(rows(errand)).isEqualTo(fresh);
        }

        for (Instant before : List.of(Instant.MIN, Instant.EPOCH, Instant.parse("1000-01-01T00:00:00Z"))) {
            int deleted;
            try {
                deleted = errand.processes().deleteFinishedBefore(before);
            } catch (IllegalArgumentException refused) {
                assertThat(refused.getMessage()).as(before.toString()).contains("1000-01-01");
                deleted = 0;
            }
            assertThat(deleted).as("deleteFinishedBefore(" + before + ")").isZero();
        }
        for (Instant after : List.of(Instant.MAX, Instant.parse("+10000-01-01T00:00:00Z"))) {
            assertRefused(
                    () -> errand.processes().deleteFinishedBefore(after),
                    "deleteFinishedBefore(" + after + ")",
                    "9999-12-31");
        }
        assertThat(rows(errand)).isEqualTo(fresh);

        // The same cut-off counts overdue tasks: none is overdue by a century, and by 30 s the one pending is.
        for (Duration age : HUGE_AGES) {
            try {
                TaskCounts counts = errand.admin().counts(age);
                assertThat(counts.counts().stream()
                                .mapToLong(TaskCounts.Count::overdue)
                                .sum())
                        .as("counts(" + age + ")")
                        .isZero();
                assertThat(errand.admin().load(age).overdue())
                        .as("load(" + age + ")")
                        .isZero();
            } catch (IllegalArgumentException refused) {
                assertThat(refused.getMessage()).as("counts(" + age + ")").contains("36500 days");
            }
        }
        assertThat(errand.admin().counts(Duration.ofSeconds(30)).counts().stream()
                        .mapToLong(TaskCounts.Count::overdue)
                        .sum())
                .isEqualTo(1);
        assertThat(errand.admin().load(Duration.ofSeconds(30)).overdue()).isEqualTo(1);

        // Zero is a real age: everything written before this moment goes.
        assertThat(errand.admin().pruneFinished(TaskState.FAILED, Duration.ZERO))
                .isEqualTo(1);
        assertThat(errand.admin().pruneFinished(TaskState.CANCELLED, Duration.ZERO))
                .isEqualTo(1);
        assertThat(errand.admin().pruneSucceeded(Duration.ZERO)).isEqualTo(fresh.succeeded());
        assertThat(errand.history().prune(Duration.ZERO)).isEqualTo((int) fresh.attempts());
        assertThat(errand.events().deletePrematureOlderThan(Duration.ZERO)).isEqualTo(1);
        assertThat(errand.processes().deleteFinishedBefore(Instant.parse("9999-12-31T23:59:59Z")))
                .isEqualTo(1);
        assertThat(rows(errand)).isEqualTo(new Rows(0, 0, 0, 0, 0, 0));
    }

    private static void assertRefused(ThrowingCallable call, String what, String hint) {
        assertThatThrownBy(call)
                .as(what)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(hint)
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(400));
    }

    private Rows rows(Errand errand) throws Exception {
        return new Rows(
                tasksIn(TaskState.SUCCEEDED),
                tasksIn(TaskState.FAILED),
                tasksIn(TaskState.CANCELLED),
                scalar("SELECT COUNT(*) FROM " + prefix + "task_attempt"),
                errand.events().premature(100).size(),
                errand.processes().list(null, 100).size());
    }

    /** A prune under test, by name. */
    private record Prune(String name, ToIntFunction<Duration> call) {}

    /** The rows that a prune could delete. */
    private record Rows(long succeeded, long failed, long cancelled, long attempts, long premature, long processes) {}
}
