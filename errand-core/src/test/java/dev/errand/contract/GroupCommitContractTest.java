package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.spi.ClaimedTask;
import dev.errand.spi.TaskTracing;
import dev.errand.spi.TraceContext;
import dev.errand.task.Task;
import dev.errand.task.TaskContext;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Group commit on a real database: many transactional tasks of a kind share one transaction, each under a
 * savepoint. Whether tasks really shared a transaction is read from the database, not assumed: each handler
 * counts the effect rows its own transaction sees and those another connection sees (the committed ones); in a
 * group of n, the last handler sees n - 1 rows more than another connection does.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class GroupCommitContractTest extends ErrandTestSupport {

    private static final int GROUP = 100;

    /** The most effect rows one handler's transaction saw that other connections did not (uncommitted). */
    private final AtomicInteger mostUncommittedSeen = new AtomicInteger();

    GroupCommitContractTest(Target target) {
        super(target);
    }

    @Test
    void aFailingTaskInAGroupOf100IsRolledBackAloneAndTheOther99CommitTogether() throws Exception {
        int failing = 37;
        Errand errand = node(builder()
                .queue("default", GROUP)
                .register(TaskDefinition.builder("grouped", Integer.class, (Integer n, TaskContext ctx) -> {
                            recordEffect(ctx.connection(), ctx.taskId(), "n=" + n);
                            noteUncommitted(ctx.connection());
                            if (n == failing && ctx.attempt() == 1) {
                                throw new IllegalStateException("task " + n + " refuses its first attempt");
                            }
                        })
                        .groupCommit(GROUP)
                        .maxAttempts(3)
                        .build()));
        Map<Integer, Long> ids = enqueue(errand, "grouped", GROUP);
        errand.start();

        await().atMost(Duration.ofSeconds(30)).until(() -> taskRows() == 0);
        assertThat(mostUncommittedSeen.get())
                .as("the 99 tasks that succeeded shared one transaction")
                .isEqualTo(GROUP - 2);
        List<String> notes = effectNotes();
        assertThat(notes).hasSize(GROUP).doesNotHaveDuplicates();
        assertThat(notes).contains("n=" + failing);
        assertThat(succeeded(GROUP, errand)).isEqualTo(GROUP);
        assertThat(errand.stats().retried()).isEqualTo(1);
        assertThat(ids).hasSize(GROUP);
    }

    @Test
    void aFailureIsRecordedOnItsTaskWhileTheRestOfTheGroupCommits() throws Exception {
        Errand errand = node(builder()
                .queue("default", 20)
                .succeededRetention(Duration.ofHours(1))
                .register(TaskDefinition.builder("grouped-fail", Integer.class, (Integer n, TaskContext ctx) -> {
                            recordEffect(ctx.connection(), ctx.taskId(), "n=" + n);
                            if (n % 5 == 0) {
                                throw new IllegalArgumentException("task " + n + " has a bad order <script>");
                            }
                        })
                        .groupCommit(20)
                        .maxAttempts(1)
                        .build()));
        Map<Integer, Long> ids = enqueue(errand, "grouped-fail", 20);
        errand.start();

        await().atMost(Duration.ofSeconds(30))
                .until(() -> tasksIn(TaskState.FAILED) + tasksIn(TaskState.SUCCEEDED) == 20);
        for (Map.Entry<Integer, Long> entry : ids.entrySet()) {
            Task task = task(errand, entry.getValue());
            if (entry.getKey() % 5 == 0) {
                assertThat(task.state()).isEqualTo(TaskState.FAILED);
                assertThat(task.lastError()).contains("task " + entry.getKey() + " has a bad order <script>");
                assertThat(errorAttempts(task)).containsExactly(1);
            } else {
                assertThat(task.state()).isEqualTo(TaskState.SUCCEEDED);
            }
        }
        assertThat(effectNotes())
                .as("the failed tasks' writes rolled back to their savepoints, the others' committed")
                .containsExactlyInAnyOrderElementsOf(ids.keySet().stream()
                        .filter(n -> n % 5 != 0)
                        .map(n -> "n=" + n)
                        .toList());
    }

    @Test
    void aTaskOfTheGroupWhoseLeaseWasTakenBackIsFencedOffAndTheOthersCommit() throws Exception {
        AtomicLong fencedId = new AtomicLong();
        // Right after the claim commits, before the group runs, another node takes one of its tasks back and
        // claims it again: its token is no longer this node's.
        TaskTracing takesOneBack = new TaskTracing() {
            @Override
            public TraceContext capture(String kind, String queue) {
                return null;
            }

            @Override
            public AttemptSpan attemptStarted(ClaimedTask task) {
                return AttemptSpan.NONE;
            }

            @Override
            public BatchSpan claimStarted(String queue) {
                return new BatchSpan() {
                    @Override
                    public void tasks(int count) {
                        if (count > 0 && fencedId.get() == 0) {
                            fencedId.set(takeBackOneRunningTask());
                        }
                    }

                    @Override
                    public void failed(Throwable error) {}

                    @Override
                    public void close() {}
                };
            }
        };
        Errand errand = node(builder()
                .queue("default", 10)
                .tracing(takesOneBack)
                .register(TaskDefinition.builder("grouped-fenced", Integer.class, (Integer n, TaskContext ctx) -> {
                            recordEffect(ctx.connection(), ctx.taskId(), "n=" + n);
                        })
                        .groupCommit(10)
                        .build()));
        Map<Integer, Long> ids = enqueue(errand, "grouped-fenced", 10);
        errand.start();

        await().atMost(Duration.ofSeconds(30)).until(() -> taskRows() == 1);
        long fenced = fencedId.get();
        assertThat(effectNotes())
                .containsExactlyInAnyOrderElementsOf(ids.entrySet().stream()
                        .filter(entry -> entry.getValue() != fenced)
                        .map(entry -> "n=" + entry.getKey())
                        .toList());
        assertThat(errand.stats().fencedOff()).isEqualTo(1);
        assertThat(task(errand, fenced).state()).isEqualTo(TaskState.RUNNING);
    }

    @Test
    void aLongGroupDoesNotHoldUpTheHeartbeatsOfTheNodesOtherTasks() throws Exception {
        java.util.concurrent.CountDownLatch outsideRunning = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch groupDone = new java.util.concurrent.CountDownLatch(1);
        AtomicInteger groupRan = new AtomicInteger();
        Errand errand = node(builder()
                .queue("default", 6)
                .register(TaskDefinition.builder("slow-group", Integer.class, (Integer n, TaskContext ctx) -> {
                            outsideRunning.await();
                            Thread.sleep(700); // the point: the group lasts well past the 2 s lease
                            recordEffect(ctx.connection(), ctx.taskId(), "n=" + n);
                            if (groupRan.incrementAndGet() == 5) {
                                groupDone.countDown();
                            }
                        })
                        .groupCommit(5)
                        .build())
                .register(TaskDefinition.builder("outside", Integer.class, (Integer n, TaskContext ctx) -> {
                            outsideRunning.countDown();
                            groupDone.await();
                        })
                        .mode(dev.errand.task.ExecutionMode.NON_TRANSACTIONAL)
                        .build()));
        long outside = errand.enqueue(TaskRequest.of("outside", 0)).id();
        enqueue(errand, "slow-group", 5);
        errand.start();

        outsideRunning.await();
        java.time.Instant firstExpiry = task(errand, outside).leaseExpiresAt();
        // While the group holds its rows locked, the heartbeat still extends the other task's lease.
        await().atMost(Duration.ofSeconds(3))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> task(errand, outside).leaseExpiresAt().isAfter(firstExpiry.plusMillis(500)));
        assertThat(groupRan.get()).as("the group was still running").isLessThan(5);
        await().atMost(Duration.ofSeconds(30)).until(() -> taskRows() == 0);
        assertThat(effects()).isEqualTo(5);
    }

    private Map<Integer, Long> enqueue(Errand errand, String kind, int count) {
        List<TaskRequest> requests = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            requests.add(TaskRequest.of(kind, i));
        }
        List<Long> ids =
                errand.enqueueAll(requests).stream().map(result -> result.id()).toList();
        Map<Integer, Long> byNumber = new ConcurrentHashMap<>();
        for (int i = 0; i < count; i++) {
            byNumber.put(i, ids.get(i));
        }
        return byNumber;
    }

    /** Compares the effect rows the handler's transaction sees with those another connection sees. */
    private void noteUncommitted(Connection own) throws SQLException {
        long mine = count(own);
        long committed;
        try (Connection other = dataSource().getConnection()) {
            committed = count(other);
        }
        mostUncommittedSeen.accumulateAndGet((int) (mine - committed - 1), Math::max);
    }

    private long count(Connection connection) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement("SELECT COUNT(*) FROM " + prefix + "effect");
                ResultSet rows = s.executeQuery()) {
            rows.next();
            return rows.getLong(1);
        }
    }

    /** Moves the lease token of the running task with the highest id, as a rescue and a new claim would. */
    private long takeBackOneRunningTask() {
        try (Connection c = dataSource().getConnection()) {
            c.setAutoCommit(true);
            long id;
            try (PreparedStatement s =
                            c.prepareStatement("SELECT MAX(id) FROM " + prefix + "task WHERE state = 'running'");
                    ResultSet rows = s.executeQuery()) {
                rows.next();
                id = rows.getLong(1);
            }
            try (PreparedStatement s =
                    c.prepareStatement("UPDATE " + prefix + "task SET lease_token = lease_token + 1 WHERE id = ?")) {
                s.setLong(1, id);
                assertThat(s.executeUpdate()).isEqualTo(1);
            }
            return id;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
