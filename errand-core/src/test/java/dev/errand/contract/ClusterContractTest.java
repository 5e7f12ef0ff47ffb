package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.batch.BatchEvent;
import dev.errand.batch.BatchProgress;
import dev.errand.batch.BatchRequest;
import dev.errand.batch.EnqueuedBatch;
import dev.errand.enqueue.TaskRequest;
import dev.errand.history.AttemptOutcome;
import dev.errand.node.NodeInfo;
import dev.errand.node.NodeState;
import dev.errand.node.NodeTarget;
import dev.errand.node.PinPolicy;
import dev.errand.node.QueueChange;
import dev.errand.task.ExecutionMode;
import dev.errand.task.FailureCause;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskKind;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Cluster behaviour inside one JVM, on every database: the registry, pinning, exclusive and disabled
 * nodes, the leader, commands, queue pause and run-time changes. Multi-process behaviour (SIGKILL, remote
 * commands to another JVM) is in {@code dev.errand.crash.ClusterCrashTest}.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class ClusterContractTest extends ErrandTestSupport {

    private final Map<Long, String> ranOn = new ConcurrentHashMap<>();

    ClusterContractTest(Target target) {
        super(target);
    }

    private TaskDefinition<Integer> recording(String nodeId) {
        return TaskDefinition.builder("work", Integer.class, (n, ctx) -> {
                    ranOn.put(ctx.taskId(), nodeId);
                })
                .mode(ExecutionMode.NON_TRANSACTIONAL)
                .build();
    }

    private Errand started(String nodeId, java.util.function.UnaryOperator<dev.errand.ErrandBuilder> options) {
        Errand node = node(options.apply(builder().nodeId(nodeId).register(recording(nodeId))));
        node.start();
        return node;
    }

    private long enqueue(Errand node, java.util.function.UnaryOperator<TaskRequest.Builder> pin) {
        return node.enqueue(pin.apply(TaskRequest.builder(dev.errand.task.TaskKind.of("work", Integer.class), 1))
                        .build())
                .id();
    }

    @Test
    void registryListsNodesAndGracefulStopMarksTheRow() {
        Errand a = started("node-a", b -> b.nodeGroups("eu", "batch"));
        Errand b = started("node-b", o -> o.processingEnabled(false));
        List<NodeInfo> nodes = a.cluster().nodes();
        assertThat(nodes).extracting(NodeInfo::nodeId).containsExactly("node-a", "node-b");
        NodeInfo first = nodes.get(0);
        assertThat(first.groups()).containsExactlyInAnyOrder("eu", "batch");
        assertThat(first.alive()).isTrue();
        assertThat(first.processing()).isTrue();
        assertThat(first.process().pid()).isEqualTo(ProcessHandle.current().pid());
        assertThat(first.times().heartbeatAt()).isNotNull();
        assertThat(nodes.get(1).processing()).as("disabled node").isFalse();
        assertThat(nodes.get(1).state()).isEqualTo(NodeState.RUNNING);

        b.stop(Duration.ofSeconds(5));
        NodeInfo stopped = a.cluster().nodes().get(1);
        assertThat(stopped.state()).isEqualTo(NodeState.STOPPED);
        assertThat(stopped.alive()).isFalse();
        assertThat(stopped.times().stoppedAt()).isNotNull();
    }

    @Test
    void pinnedTasksRunOnlyOnTheirNodeOrGroupAndExclusiveNodesOnlyTakeTheirOwn() {
        Errand a = started("node-a", b -> b.nodeGroups("eu"));
        Errand b = started("node-b", o -> o.nodeGroups("us"));
        Errand x = started("node-x", o -> o.nodeGroups("special").exclusive(true));
        Errand off =
                started("node-off", o -> o.nodeGroups("eu", "us", "special").processingEnabled(false));
        long toA = enqueue(off, r -> r.node("node-a"));
        long toB = enqueue(off, r -> r.node("node-b"));
        long toUs = enqueue(off, r -> r.nodeGroup("us"));
        long toSpecial = enqueue(off, r -> r.nodeGroup("special"));
        long toX = enqueue(off, r -> r.node("node-x"));
        long[] unpinned = new long[20];
        for (int i = 0; i < unpinned.length; i++) {
            unpinned[i] = enqueue(off, r -> r);
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> ranOn.size() == 25);
        assertThat(ranOn.get(toA)).isEqualTo("node-a");
        assertThat(ranOn.get(toB)).isEqualTo("node-b");
        assertThat(ranOn.get(toUs)).isEqualTo("node-b");
        assertThat(ranOn.get(toSpecial)).isEqualTo("node-x");
        assertThat(ranOn.get(toX)).isEqualTo("node-x");
        for (long id : unpinned) {
            assertThat(ranOn.get(id)).as("unpinned task %d", id).isIn("node-a", "node-b");
        }
        assertThat(ranOn.values()).doesNotContain("node-off");
        assertThat(a.isRunning()).isTrue();
        assertThat(off.isRunning()).isFalse();
    }

    @Test
    void pinnedTasksEnqueuedTogetherWithUnpinnedOnesKeepTheirPins() throws Exception {
        Errand a = started("node-a", b -> b.nodeGroups("eu"));
        Errand b = started("node-b", o -> o.nodeGroups("us"));
        dev.errand.task.TaskKind<Integer> work = dev.errand.task.TaskKind.of("work", Integer.class);
        List<TaskRequest> requests = new java.util.ArrayList<>();
        for (int i = 0; i < 30; i++) {
            TaskRequest.Builder request = TaskRequest.builder(work, i);
            switch (i % 3) {
                case 0 -> request.node("node-a");
                case 1 -> request.nodeGroup("us");
                default -> {}
            }
            requests.add(request.build());
        }
        List<dev.errand.enqueue.Enqueued> enqueued;
        try (java.sql.Connection connection = dataSource().getConnection()) {
            connection.setAutoCommit(false);
            enqueued = a.enqueueAll(connection, requests);
            connection.commit();
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> ranOn.size() == 30);
        for (int i = 0; i < 30; i++) {
            long id = enqueued.get(i).id();
            switch (i % 3) {
                case 0 ->
                    assertThat(ranOn.get(id)).as("task %d pinned to node-a", i).isEqualTo("node-a");
                case 1 ->
                    assertThat(ranOn.get(id))
                            .as("task %d pinned to group us", i)
                            .isEqualTo("node-b");
                default -> assertThat(ranOn.get(id)).as("unpinned task %d", i).isIn("node-a", "node-b");
            }
        }
        assertThat(b.isRunning()).isTrue();
    }

    @Test
    void pinPoliciesFallBackOrFailForAnAbsentNode() throws Exception {
        Errand leader = node(builder()
                .nodeId("leader")
                .nodeGroups("eu")
                .register(TaskDefinition.builder("falls", Integer.class, (n, ctx) -> ranOn.put(ctx.taskId(), "leader"))
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .pinPolicy(PinPolicy.fallBackToGroup())
                        .build())
                .register(TaskDefinition.builder("fails", Integer.class, (n, ctx) -> ranOn.put(ctx.taskId(), "leader"))
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .pinPolicy(PinPolicy.failAfter(Duration.ofMillis(200)))
                        .build())
                .register(TaskDefinition.builder("waits", Integer.class, (n, ctx) -> ranOn.put(ctx.taskId(), "leader"))
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build()));
        leader.start();
        long falls = leader.enqueue(TaskRequest.builder(dev.errand.task.TaskKind.of("falls", Integer.class), 1)
                        .node("gone")
                        .nodeGroup("eu")
                        .build())
                .id();
        long fails = leader.enqueue(TaskRequest.builder(dev.errand.task.TaskKind.of("fails", Integer.class), 1)
                        .node("never-registered")
                        .build())
                .id();
        long waits = leader.enqueue(TaskRequest.builder(dev.errand.task.TaskKind.of("waits", Integer.class), 1)
                        .node("gone")
                        .build())
                .id();
        await().atMost(Duration.ofSeconds(20)).until(() -> ranOn.containsKey(falls));
        await().atMost(Duration.ofSeconds(20)).until(() -> task(leader, fails).state() == TaskState.FAILED);
        assertThat(task(leader, fails).lastError()).contains("not alive").contains("PinPolicy.failAfter");
        assertThat(ranOn).doesNotContainKey(fails);
        assertThat(task(leader, waits).state()).isEqualTo(TaskState.PENDING);
        assertThat(leader.isLeader()).isTrue();
        assertThat(leader.cluster().leader()).contains("leader");
    }

    @Test
    void aPinFailureRunsTheFailureCallbackRecordsHistoryAndMovesItsBatchOn() throws Exception {
        Map<Long, FailureCause> causes = new ConcurrentHashMap<>();
        Errand leader = node(builder()
                .nodeId("leader")
                .historyEnabled(true)
                .register(TaskDefinition.builder("fails", Integer.class, (n, ctx) -> ranOn.put(ctx.taskId(), "leader"))
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .pinPolicy(PinPolicy.failAfter(Duration.ofMillis(200)))
                        .onFailure((task, connection) -> causes.put(task.id(), task.cause()))
                        .build())
                .register(TaskDefinition.builder("done", String.class, (s, ctx) -> ranOn.put(ctx.taskId(), s))
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build()));
        leader.start();
        TaskKind<Integer> fails = TaskKind.of("fails", Integer.class);
        EnqueuedBatch batch = leader.enqueueBatch(BatchRequest.builder()
                .add(TaskRequest.builder(fails, 1).node("never-registered").build())
                .add(TaskRequest.of(fails, 2))
                .on(BatchEvent.COMPLETE, id -> TaskRequest.of("done", "complete"))
                .on(BatchEvent.FAILURE, id -> TaskRequest.of("done", "failure"))
                .build());
        long pinned = batch.taskIds().get(0);
        await().atMost(Duration.ofSeconds(20)).until(() -> ranOn.containsValue("complete"));
        assertThat(ranOn).containsValue("failure").doesNotContainKey(pinned);
        assertThat(causes.get(pinned)).isInstanceOfSatisfying(FailureCause.PinnedNodeAbsent.class, cause -> {
            assertThat(cause.node()).isEqualTo("never-registered");
            assertThat(cause.waited()).isEqualTo(Duration.ofMillis(200));
        });
        assertThat(task(leader, pinned).state()).isEqualTo(TaskState.FAILED);
        assertThat(task(leader, pinned).lastError())
                .contains("never-registered")
                .contains("PinPolicy.failAfter");
        BatchProgress progress = leader.batches().progress(batch.id()).orElseThrow();
        assertThat(progress.succeeded()).isEqualTo(1);
        assertThat(progress.failed()).isEqualTo(1);
        assertThat(progress.isFinished()).isTrue();
        assertThat(leader.history().attempts(pinned)).singleElement().satisfies(attempt -> assertThat(attempt.outcome())
                .isEqualTo(AttemptOutcome.NODE_ABSENT));
    }

    @Test
    void anEngineStopsAndStartsAgainInTheSameJvm() {
        Errand a = started("node-a", b -> b);
        assertThat(a.isRunning()).isTrue();
        a.stop(Duration.ofSeconds(5));
        assertThat(a.isRunning()).isFalse();
        a.start();
        assertThat(a.isRunning()).isTrue();
        long id = enqueue(a, r -> r);
        await().atMost(Duration.ofSeconds(10)).until(() -> ranOn.containsKey(id));
        assertThat(a.cluster().nodes().get(0).state()).isEqualTo(NodeState.RUNNING);
    }

    @Test
    void remoteCommandsStopStartAndRepollOtherNodes() {
        Errand admin = started("admin", b -> b.processingEnabled(false));
        Errand worker = started("worker", b -> b.nodeGroups("g").pollInterval(Duration.ofHours(1)));
        // A poll interval of an hour: only a repoll makes the worker claim a task enqueued elsewhere.
        long id = enqueue(admin, r -> r);
        admin.cluster().repoll(NodeTarget.group("g"));
        await().atMost(Duration.ofSeconds(10)).until(() -> ranOn.containsKey(id));

        admin.cluster().stopProcessing(NodeTarget.node("worker"));
        await().atMost(Duration.ofSeconds(10)).until(() -> !worker.isRunning());
        await().atMost(Duration.ofSeconds(10)).until(() -> !admin.cluster().nodes().stream()
                .filter(n -> n.nodeId().equals("worker"))
                .findFirst()
                .orElseThrow()
                .processing());
        admin.cluster().startProcessing(NodeTarget.all());
        await().atMost(Duration.ofSeconds(10)).until(worker::isRunning);
        assertThat(admin.isRunning()).as("a disabled node ignores start").isFalse();
    }

    @Test
    void aPausedQueueAcceptsEnqueuesButNoNodeClaimsUntilResumed() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Errand a = node(builder()
                .nodeId("node-a")
                .register(TaskDefinition.builder("slow", Integer.class, (n, ctx) -> {
                            running.countDown();
                            release.await(10, TimeUnit.SECONDS);
                            ranOn.put(ctx.taskId(), "node-a");
                        })
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build()));
        a.start();
        long slow = a.enqueue(TaskRequest.builder(dev.errand.task.TaskKind.of("slow", Integer.class), 1)
                        .build())
                .id();
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
        a.cluster().pauseQueue("default");
        await().atMost(Duration.ofSeconds(5))
                .until(() -> a.cluster().queueControls().get(0).paused());
        // The reload command reaches the node within a heartbeat (200 ms here).
        Thread.sleep(400);
        long held = a.enqueue(TaskRequest.builder(dev.errand.task.TaskKind.of("slow", Integer.class), 2)
                        .build())
                .id();
        release.countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> ranOn.containsKey(slow));
        // Ten poll intervals: a queue that was not paused would have claimed the task by now.
        Thread.sleep(500);
        assertThat(task(a, held).state()).as("paused queue").isEqualTo(TaskState.PENDING);
        a.cluster().resumeQueue("default");
        await().atMost(Duration.ofSeconds(10)).until(() -> ranOn.containsKey(held));
    }

    @Test
    void queueSettingsChangeAtRunTimeOnEveryNode() throws Exception {
        Errand a = started("node-a", b -> b.queue("default", 1));
        a.cluster().changeQueue("default", new QueueChange(3, Duration.ofMillis(100), 7));
        await().atMost(Duration.ofSeconds(5))
                .until(() -> a.activity().get("default").concurrency() == 3);
        assertThat(a.cluster().queueControls().get(0)).satisfies(control -> {
            assertThat(control.concurrency()).isEqualTo(3);
            assertThat(control.pollInterval()).isEqualTo(Duration.ofMillis(100));
            assertThat(control.claimBatchSize()).isEqualTo(7);
        });
        CountDownLatch together = new CountDownLatch(3);
        Errand b = node(builder()
                .nodeId("node-b")
                .queue("default", 1)
                .register(TaskDefinition.builder("work", Integer.class, (n, ctx) -> {
                            together.countDown();
                            together.await(10, TimeUnit.SECONDS);
                        })
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build()));
        a.stop(Duration.ofSeconds(5));
        b.start();
        assertThat(b.activity().get("default").concurrency())
                .as("a node started later applies it")
                .isEqualTo(3);
        for (int i = 0; i < 3; i++) {
            enqueue(b, r -> r);
        }
        assertThat(together.await(10, TimeUnit.SECONDS))
                .as("three tasks at once")
                .isTrue();
        b.cluster().resetQueue("default");
        await().atMost(Duration.ofSeconds(5))
                .until(() -> b.activity().get("default").concurrency() == 1);
    }

    @Test
    void queueSettingsChangedThroughTheAdminReachTwoLiveNodes() throws Exception {
        // Both poll once an hour: only the new poll interval (or, on PostgreSQL, a notification) makes them
        // claim a task enqueued on another node.
        Errand a = started("live-a", o -> o.queue("default", 1).pollInterval(Duration.ofHours(1)));
        Errand b = started("live-b", o -> o.queue("default", 1).pollInterval(Duration.ofHours(1)));
        Errand admin = started("admin", o -> o.processingEnabled(false));
        long sent = System.nanoTime();
        admin.cluster().changeQueue("default", new QueueChange(3, Duration.ofMillis(100), 7));
        await().atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(10))
                .until(() -> a.activity().get("default").concurrency() == 3
                        && b.activity().get("default").concurrency() == 3);
        long appliedMillis = Duration.ofNanos(System.nanoTime() - sent).toMillis();
        List<Long> ids = new java.util.ArrayList<>();
        for (int i = 0; i < 10; i++) {
            ids.add(enqueue(admin, r -> r));
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> ranOn.keySet().containsAll(ids));
        assertThat(ranOn).allSatisfy((id, node) -> assertThat(node).isIn("live-a", "live-b"));
        assertThat(admin.cluster().queueControls()).singleElement().satisfies(control -> {
            assertThat(control.concurrency()).isEqualTo(3);
            assertThat(control.pollInterval()).isEqualTo(Duration.ofMillis(100));
            assertThat(control.claimBatchSize()).isEqualTo(7);
        });
        admin.cluster().resetQueue("default");
        await().atMost(Duration.ofSeconds(5))
                .until(() -> a.activity().get("default").concurrency() == 1
                        && b.activity().get("default").concurrency() == 1);
        System.out.println("[cluster] " + database + ": a queue change reached both live nodes in " + appliedMillis
                + " ms (heartbeat 200 ms)");
    }

    @Test
    void deadNodesAreDeclaredByTheLeaderAndTheirLeasesRescuedAtOnce() throws Exception {
        Errand survivor = started("survivor", b -> b.deadNodeTimeout(Duration.ofSeconds(1)));
        long id = ghostRunningATask(survivor);
        await().atMost(Duration.ofSeconds(10)).until(() -> ghostIsDead(survivor));
        await().atMost(Duration.ofSeconds(10)).until(() -> task(survivor, id).state() == TaskState.PENDING);
        assertThat(task(survivor, id).lastError()).contains("ghost");
    }

    @Test
    void aDeadNodesTaskWhoseRowWasLockedAtTheSweepIsRescuedOnceTheLockGoes() throws Exception {
        Errand survivor = started("survivor", b -> b.deadNodeTimeout(Duration.ofSeconds(1)));
        long id = ghostRunningATask(survivor);
        // A lock held across the sweep: the sweep skips the row rather than wait, as it must for a stalled
        // node's transactional run; a lock of a moment (another statement's scan) looks the same to it.
        try (Connection lock = dataSource().getConnection()) {
            lock.setAutoCommit(false);
            try (PreparedStatement s =
                    lock.prepareStatement("SELECT id FROM " + prefix + "task WHERE id = ? FOR UPDATE")) {
                s.setLong(1, id);
                s.executeQuery().close();
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> ghostIsDead(survivor));
            Thread.sleep(600); // the point: the locked task stays running this long
            assertThat(task(survivor, id).state()).isEqualTo(TaskState.RUNNING);
            lock.rollback();
        }
        long released = System.nanoTime();
        // The ghost's lease runs an hour: only the leader's next sweeps can free the task this soon.
        await().atMost(Duration.ofSeconds(5)).until(() -> task(survivor, id).state() == TaskState.PENDING);
        System.out.println("[cluster] " + database + ": lock released to rescue "
                + Duration.ofNanos(System.nanoTime() - released).toMillis() + " ms (heartbeat 200 ms)");
        assertThat(task(survivor, id).lastError()).contains("ghost");
    }

    @Test
    void aNewLeaderEndsTheLeasesThatADeadNodeStillHolds() throws Exception {
        Errand first = started("first", b -> b.deadNodeTimeout(Duration.ofSeconds(1)));
        await().atMost(Duration.ofSeconds(5)).until(first::isLeader);
        // Past the first leader's first beats, where it looks at the dead nodes' leases once.
        Thread.sleep(600);
        // Declared dead under an earlier leader, whose sweep had to skip the task's locked row.
        long id = ghostRunningATask(first, "dead");
        Errand second = started("second", b -> b.deadNodeTimeout(Duration.ofSeconds(1)));
        Thread.sleep(600); // the point: the second node leaves the dead node's lease alone
        assertThat(task(second, id).state()).isEqualTo(TaskState.RUNNING);
        first.stop();
        long stopped = System.nanoTime();
        await().atMost(Duration.ofSeconds(5)).until(second::isLeader);
        // The ghost's lease runs an hour: only the new leader's look at the dead nodes can free it this soon.
        await().atMost(Duration.ofSeconds(5)).until(() -> task(second, id).state() == TaskState.PENDING);
        System.out.println("[cluster] " + database + ": from the leader's stop to the dead node's task rescued by the"
                + " next leader "
                + Duration.ofNanos(System.nanoTime() - stopped).toMillis() + " ms (heartbeat 200 ms)");
        assertThat(task(second, id).lastError()).contains("ghost");
    }

    private boolean ghostIsDead(Errand survivor) {
        return isDead(survivor, "ghost");
    }

    private static boolean isDead(Errand survivor, String nodeId) {
        return survivor.cluster().nodes().stream()
                .anyMatch(n -> n.nodeId().equals(nodeId) && n.state() == NodeState.DEAD);
    }

    @Test
    void aNodeRowLockedByAStalledHeartbeatDoesNotStallTheSweepForTheOtherNodes() throws Exception {
        Errand survivor = started("survivor", b -> b.deadNodeTimeout(Duration.ofSeconds(1)));
        ghostRunningATask(survivor);
        try (Connection c = dataSource().getConnection()) {
            insertStaleNode(c, "ghost-2", "running");
        }
        // A node stopped inside its heartbeat's transaction holds its own row locked: here, "ghost".
        try (Connection lock = dataSource().getConnection()) {
            lock.setAutoCommit(false);
            try (PreparedStatement s = lock.prepareStatement(
                    "SELECT node_id FROM " + prefix + "node WHERE node_id = 'ghost' FOR UPDATE")) {
                s.executeQuery().close();
            }
            // Waiting for that lock would hold back the declaration of every other dead node too.
            await().atMost(Duration.ofSeconds(10)).until(() -> isDead(survivor, "ghost-2"));
            assertThat(ghostIsDead(survivor))
                    .as("the locked node row is skipped")
                    .isFalse();
            lock.rollback();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> ghostIsDead(survivor));
    }

    /** Inserts a node row in {@code state} whose heartbeat stopped five minutes ago. */
    private void insertStaleNode(Connection c, String nodeId, String state) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "INSERT INTO " + prefix + "node (node_id, node_groups,"
                        + " processing, exclusive_mode, state, started_at, heartbeat_at) VALUES (?, ',', TRUE, FALSE, ?, ?, ?)")) {
            java.time.OffsetDateTime old =
                    java.time.OffsetDateTime.now(java.time.ZoneOffset.UTC).minusMinutes(5);
            Object value = database == dev.errand.testkit.TestDatabase.MARIADB ? old.toLocalDateTime() : old;
            s.setString(1, nodeId);
            s.setString(2, state);
            s.setObject(3, value);
            s.setObject(4, value);
            s.executeUpdate();
        }
    }

    /** A node row whose heartbeat stopped five minutes ago, holding a running task with a lease of an hour. */
    private long ghostRunningATask(Errand survivor) throws SQLException {
        return ghostRunningATask(survivor, "running");
    }

    /** The same, with the node row in {@code state}. */
    private long ghostRunningATask(Errand survivor, String state) throws SQLException {
        long id = enqueue(survivor, r -> r.node("ghost"));
        try (Connection c = dataSource().getConnection()) {
            insertStaleNode(c, "ghost", state);
            try (PreparedStatement s = c.prepareStatement("UPDATE " + prefix + "task SET state = 'running',"
                    + " lease_owner = 'ghost', lease_token = 1, attempt = 1, lease_expires_at = ? WHERE id = ?")) {
                java.time.OffsetDateTime later =
                        java.time.OffsetDateTime.now(java.time.ZoneOffset.UTC).plusHours(1);
                s.setObject(1, database == dev.errand.testkit.TestDatabase.MARIADB ? later.toLocalDateTime() : later);
                s.setLong(2, id);
                s.executeUpdate();
            }
        }
        return id;
    }
}
