package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.Errand;
import dev.errand.enqueue.Enqueued;
import dev.errand.enqueue.TaskRequest;
import dev.errand.error.ErrandException;
import dev.errand.task.Task;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import dev.errand.testkit.TestDatabase;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/** Guarantee 1 (atomic enqueue) and the enqueue API's options and argument checks. */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class EnqueueContractTest extends ErrandTestSupport {

    record Email(String to, String subject) {}

    record Exploding(String value) {
        @Override
        public String value() {
            throw new IllegalStateException("boom");
        }
    }

    EnqueueContractTest(Target target) {
        super(target);
    }

    @Test
    void rollbackLeavesNoTaskAndCommitKeepsIt() throws Exception {
        Errand errand = node(builder());
        try (Connection c = dataSource().getConnection()) {
            c.setAutoCommit(false);
            errand.enqueue(c, TaskRequest.of("email", new Email("a@example.com", "rolled back")));
            c.rollback();
            long kept = errand.enqueue(c, TaskRequest.of("email", new Email("b@example.com", "committed")))
                    .id();
            c.commit();
            c.setAutoCommit(true);
            assertThat(taskRows()).isEqualTo(1);
            Task task = task(errand, kept);
            assertThat(task.state()).isEqualTo(TaskState.PENDING);
            assertThat(task.payloadJson()).contains("b@example.com").contains("committed");
            assertThat(task.priority()).isEqualTo(5);
            assertThat(task.queue()).isEqualTo("default");
            assertThat(task.maxAttempts()).isEqualTo(5);
            assertThat(task.attempt()).isZero();
        }
    }

    @Test
    void ownConnectionEnqueueCommitsAtOnce() throws Exception {
        Errand errand = node(builder().queue("mail", 2).defaultMaxAttempts(7));
        long id = errand.enqueue(TaskRequest.builder("email", null)
                        .queue("mail")
                        .priority(2)
                        .build())
                .id();
        Task task = task(errand, id);
        assertThat(task.queue()).isEqualTo("mail");
        assertThat(task.priority()).isEqualTo(2);
        assertThat(task.maxAttempts()).isEqualTo(7);
        assertThat(task.payloadJson()).isNull();
    }

    @Test
    void runAtAndDelayAreStoredInDatabaseTime() throws Exception {
        Errand errand = node(builder());
        Instant at = Instant.parse("2031-03-04T05:06:07.123456Z");
        long fixed =
                errand.enqueue(TaskRequest.builder("k", 1).runAt(at).build()).id();
        long delayed = errand.enqueue(
                        TaskRequest.builder("k", 2).delay(Duration.ofHours(2)).build())
                .id();
        Instant now = databaseNow();
        assertThat(task(errand, fixed).runAt()).isEqualTo(at);
        assertThat(task(errand, delayed).runAt())
                .isBetween(
                        now.plus(Duration.ofHours(2)).minusSeconds(5),
                        now.plus(Duration.ofHours(2)).plusSeconds(5));
    }

    @Test
    void batchEnqueueReturnsIdsInRequestOrder() throws Exception {
        Errand errand = node(builder());
        List<TaskRequest> requests = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            requests.add(TaskRequest.builder("batch", new Email("user" + i + "@example.com", "n" + i))
                    .priority(1 + i % 10)
                    .build());
        }
        requests.add(
                TaskRequest.builder("batch", "with-key").uniqueKey("batch-key").build());
        List<Long> ids;
        try (Connection c = dataSource().getConnection()) {
            c.setAutoCommit(false);
            ids = errand.enqueueAll(c, requests).stream().map(Enqueued::id).toList();
            c.commit();
        }
        assertThat(ids).hasSize(501).doesNotHaveDuplicates();
        assertThat(taskRows()).isEqualTo(501);
        for (int i : new int[] {0, 1, 250, 499}) {
            Task task = task(errand, ids.get(i));
            assertThat(task.payloadJson()).contains("user" + i + "@example.com");
            assertThat(task.priority()).isEqualTo(1 + i % 10);
        }
        assertThat(task(errand, ids.get(500)).uniqueKey()).isEqualTo("batch-key");
        assertThat(errand.enqueueAll(List.of())).isEmpty();
    }

    @Test
    void batchEnqueueRollsBackWithTheCaller() throws Exception {
        Errand errand = node(builder());
        try (Connection c = dataSource().getConnection()) {
            c.setAutoCommit(false);
            errand.enqueueAll(c, List.of(TaskRequest.of("a", 1), TaskRequest.of("b", 2)));
            c.rollback();
        }
        assertThat(taskRows()).isZero();
    }

    @Test
    void duplicateUniqueKeyReturnsTheActiveTask() throws Exception {
        Errand errand = node(builder());
        Enqueued first = errand.enqueue(
                TaskRequest.builder("report", 1).uniqueKey("report-2026-11").build());
        Enqueued second = errand.enqueue(
                TaskRequest.builder("report", 2).uniqueKey("report-2026-11").build());
        assertThat(first.created()).isTrue();
        assertThat(second.deduplicated()).isTrue();
        assertThat(second.id()).isEqualTo(first.id());
        assertThat(taskRows()).isEqualTo(1);
        // A finished task frees its key.
        assertThat(errand.admin().cancel(first.id())).isTrue();
        Enqueued third = errand.enqueue(
                TaskRequest.builder("report", 3).uniqueKey("report-2026-11").build());
        assertThat(third.created()).isTrue();
        assertThat(third.id()).isNotEqualTo(first.id());
        assertThat(taskRows()).isEqualTo(2);
    }

    @Test
    void duplicateUniqueKeyInsideCallerTransactionKeepsTheTransactionUsable() throws Exception {
        Errand errand = node(builder());
        long first = errand.enqueue(
                        TaskRequest.builder("report", 1).uniqueKey("k1").build())
                .id();
        try (Connection c = dataSource().getConnection()) {
            c.setAutoCommit(false);
            assertThat(errand.enqueue(
                            c, TaskRequest.builder("report", 2).uniqueKey("k1").build()))
                    .isEqualTo(new Enqueued(first, false));
            long other = errand.enqueue(c, TaskRequest.of("report", 3)).id();
            c.commit();
            assertThat(task(errand, other).state()).isEqualTo(TaskState.PENDING);
        }
        assertThat(taskRows()).isEqualTo(2);
    }

    @Test
    void duplicateKeyCommittedAfterTheCallersSnapshotIsStillFound() throws Exception {
        Errand errand = node(builder());
        try (Connection c = dataSource().getConnection()) {
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            c.setAutoCommit(false);
            // Take the snapshot now, before another transaction commits the key.
            try (var s = c.createStatement()) {
                s.executeQuery("SELECT COUNT(*) FROM " + prefix + "task").close();
            }
            long holder = errand.enqueue(TaskRequest.builder("snap", 1)
                            .uniqueKey("later-key")
                            .build())
                    .id();
            TaskRequest duplicate =
                    TaskRequest.builder("snap", 2).uniqueKey("later-key").build();
            if (database == TestDatabase.POSTGRES) {
                // PostgreSQL's REPEATABLE READ contract: the clash is a serialization failure, and the
                // caller runs its transaction again, as it would for any other clash.
                assertThatThrownBy(() -> errand.enqueue(c, duplicate))
                        .isInstanceOf(ErrandException.class)
                        .satisfies(e ->
                                assertThat(((ErrandException) e).sqlState()).isEqualTo("40001"));
                c.rollback();
            } else {
                assertThat(errand.enqueue(c, duplicate)).isEqualTo(new Enqueued(holder, false));
                c.commit();
            }
            c.setAutoCommit(true);
            c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        }
        assertThat(taskRows()).isEqualTo(1);
    }

    @Test
    void concurrentEnqueuesOfOneUniqueKeyWriteOneRow() throws Exception {
        Errand errand = node(builder());
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 10; round++) {
                String key = "race-" + round;
                CountDownLatch start = new CountDownLatch(1);
                List<Future<Long>> results = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int payload = t;
                    Callable<Long> enqueue = () -> {
                        start.await();
                        return errand.enqueue(TaskRequest.builder("race", payload)
                                        .uniqueKey(key)
                                        .build())
                                .id();
                    };
                    results.add(pool.submit(enqueue));
                }
                start.countDown();
                Set<Long> ids = new HashSet<>();
                for (Future<Long> result : results) {
                    ids.add(result.get());
                }
                assertThat(ids).as("ids returned for key %s", key).hasSize(1);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(taskRows()).isEqualTo(10);
    }

    @Test
    void badArgumentsAreRejectedWithAHint() {
        Errand errand = node(builder());
        assertThatThrownBy(() -> TaskRequest.of((String) null, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("non-blank");
        assertThatThrownBy(() -> TaskRequest.of("  ", 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("non-blank");
        assertThatThrownBy(() -> TaskRequest.builder("k", 1).priority(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 1 (runs first) and 10");
        assertThatThrownBy(() -> TaskRequest.builder("k", 1).priority(11))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 1 (runs first) and 10");
        assertThatThrownBy(() -> TaskRequest.builder("k", 1).delay(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("zero or more");
        assertThatThrownBy(() -> TaskRequest.builder("k", 1).maxAttempts(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 1 and 1000");
        assertThatThrownBy(() -> TaskRequest.builder("k", 1).uniqueKey("pad "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("whitespace");
        assertThatThrownBy(() -> TaskRequest.of(" k", 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("whitespace");
        assertThatThrownBy(() -> TaskRequest.builder("k", 1).uniqueKey("x".repeat(201)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("200");
        assertThatThrownBy(() -> errand.enqueue(
                        TaskRequest.builder("k", 1).queue("nowhere").build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Queue 'nowhere' is not configured")
                .hasMessageContaining(".queue(\"nowhere\"");
        assertThatThrownBy(() -> errand.enqueue(TaskRequest.of("k", new Object())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot be written as JSON");
        assertThatThrownBy(() -> errand.enqueue(TaskRequest.of("k", new Exploding("x"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot be written as JSON");
        assertThatThrownBy(() -> errand.enqueue(null, TaskRequest.of("k", 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("connection must not be null");
        assertThatThrownBy(() -> errand.enqueue((TaskRequest) null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("TaskRequest.of");
    }

    @Test
    void timesRoundTripToTheMicrosecond() throws Exception {
        Errand errand = node(builder());
        Instant at = Instant.now().plus(3, ChronoUnit.DAYS).truncatedTo(ChronoUnit.MICROS);
        long id = errand.enqueue(TaskRequest.builder("k", 1).runAt(at).build()).id();
        assertThat(task(errand, id).runAt()).isEqualTo(at);
    }
}
