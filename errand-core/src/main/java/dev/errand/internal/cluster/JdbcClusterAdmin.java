package dev.errand.internal.cluster;

import dev.errand.config.Names;
import dev.errand.error.ErrandException;
import dev.errand.internal.cluster.ClusterStore.ControlRow;
import dev.errand.internal.cluster.ClusterStore.NodeRow;
import dev.errand.internal.store.Jdbc;
import dev.errand.internal.store.Micros;
import dev.errand.internal.store.Storage;
import dev.errand.internal.wakeup.QueueSignal;
import dev.errand.node.ClusterAdmin;
import dev.errand.node.ControlChange;
import dev.errand.node.KindChange;
import dev.errand.node.KindControl;
import dev.errand.node.NodeInfo;
import dev.errand.node.NodeState;
import dev.errand.node.NodeTarget;
import dev.errand.node.QueueChange;
import dev.errand.node.QueueControl;
import dev.errand.node.Retention;
import dev.errand.node.RetentionControl;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * {@link ClusterAdmin} on the cluster tables. A command is a row plus, on PostgreSQL, a notification in
 * the same transaction; this JVM's own node is woken through its in-process signal.
 */
public final class JdbcClusterAdmin implements ClusterAdmin {

    /** The most changes {@link #changes(int)} returns at once. */
    static final int MOST_CHANGES = 1_000;

    private final Storage storage;
    private final ClusterStore store;
    private final Duration deadNodeTimeout;
    private final CommandRoute route;
    private final ControlAudit audit;

    /**
     * How commands reach the nodes: a notification channel, and the signal of this JVM's own node agent.
     *
     * @param channel the notification channel of the nodes
     * @param localCommands the signal of this JVM's node agent
     */
    public record CommandRoute(String channel, QueueSignal localCommands) {}

    /**
     * Creates the admin.
     *
     * @param storage the node's storage
     * @param store the cluster statements
     * @param deadNodeTimeout how old a heartbeat may be for a node to count as alive
     * @param route how commands reach the nodes
     * @param audit where each change is recorded, and for whom
     */
    public JdbcClusterAdmin(
            Storage storage, ClusterStore store, Duration deadNodeTimeout, CommandRoute route, ControlAudit audit) {
        this.storage = storage;
        this.store = store;
        this.deadNodeTimeout = deadNodeTimeout;
        this.route = route;
        this.audit = audit;
    }

    @Override
    public ClusterAdmin as(String actor) {
        return new JdbcClusterAdmin(storage, store, deadNodeTimeout, route, audit.as(actor));
    }

    @Override
    public List<ControlChange> changes(int limit) {
        if (limit < 1 || limit > MOST_CHANGES) {
            throw new IllegalArgumentException(
                    "limit must be between 1 and " + MOST_CHANGES + ", got " + limit + "; page with a smaller one");
        }
        return read("list control changes", c -> audit.recent(c, limit));
    }

    @Override
    public List<NodeInfo> nodes() {
        return read("list nodes", c -> {
            Optional<String> leader = store.leaseHolder(c, "maintenance");
            List<NodeInfo> nodes = new ArrayList<>();
            Map<String, Long> running = store.runningPerNode(c);
            for (NodeRow row : store.nodes(c, Micros.of(deadNodeTimeout))) {
                nodes.add(info(row, leader, running.getOrDefault(row.identity().nodeId(), 0L)));
            }
            return nodes;
        });
    }

    private static NodeInfo info(NodeRow row, Optional<String> leader, long runningTasks) {
        NodeState state = NodeState.valueOf(row.flags().state().toUpperCase(Locale.ROOT));
        String id = row.identity().nodeId();
        Set<String> groups = Arrays.stream(row.identity().groups().split(","))
                .filter(group -> !group.isEmpty())
                .collect(Collectors.toSet());
        boolean alive = state == NodeState.RUNNING && row.times().fresh();
        return new NodeInfo(
                id,
                groups,
                state,
                alive,
                row.flags().processing() && alive,
                row.flags().exclusive(),
                leader.map(id::equals).orElse(false),
                new NodeInfo.Times(
                        row.times().startedAt(),
                        row.times().heartbeatAt(),
                        row.times().stoppedAt()),
                new NodeInfo.Process(
                        row.process().host(), row.process().pid(), row.process().version()),
                runningTasks);
    }

    @Override
    public Optional<String> leader() {
        return read("read leader", c -> store.leaseHolder(c, "maintenance"));
    }

    @Override
    public void repoll(NodeTarget target) {
        send("repoll", target);
    }

    @Override
    public void stopProcessing(NodeTarget target) {
        send("stop", target);
    }

    @Override
    public void startProcessing(NodeTarget target) {
        send("start", target);
    }

    @Override
    public void pauseQueue(String queue) {
        change(
                queue,
                "pause-queue",
                null,
                row -> new ControlRow(
                        row.queue(), true, row.concurrency(), row.pollIntervalMillis(), row.claimBatchSize()));
    }

    @Override
    public void resumeQueue(String queue) {
        change(
                queue,
                "resume-queue",
                null,
                row -> new ControlRow(
                        row.queue(), false, row.concurrency(), row.pollIntervalMillis(), row.claimBatchSize()));
    }

    @Override
    public void changeQueue(String queue, QueueChange change) {
        if (change == null) {
            throw new IllegalArgumentException("change must not be null; use QueueChange.concurrency(n) and friends");
        }
        change(
                queue,
                "change-queue",
                describe(change),
                row -> new ControlRow(
                        row.queue(),
                        row.paused(),
                        change.concurrency() != null ? change.concurrency() : row.concurrency(),
                        // Boxed on both sides: a queue without an override has no interval to unbox.
                        change.pollInterval() != null
                                ? Long.valueOf(change.pollInterval().toMillis())
                                : row.pollIntervalMillis(),
                        change.claimBatchSize() != null ? change.claimBatchSize() : row.claimBatchSize()));
    }

    @Override
    public void resetQueue(String queue) {
        change(queue, "reset-queue", null, row -> new ControlRow(row.queue(), row.paused(), null, null, null));
    }

    @Override
    public void changeKind(String kind, KindChange change) {
        if (change == null) {
            throw new IllegalArgumentException(
                    "change must not be null; use KindChange.maxAttempts(n), KindChange.retryPolicy(policy) or"
                            + " KindChange.executionTimeout(duration)");
        }
        changeKind(
                kind,
                "change-kind",
                describe(change),
                current -> new KindControl(
                        kind,
                        change.maxAttempts() != null ? change.maxAttempts() : current.maxAttempts(),
                        change.retryPolicy() != null ? change.retryPolicy() : current.retryPolicy(),
                        change.executionTimeout() != null ? change.executionTimeout() : current.executionTimeout()));
    }

    @Override
    public void resetKind(String kind) {
        changeKind(kind, "reset-kind", null, current -> null);
    }

    @Override
    public List<KindControl> kindControls() {
        return read("list kind controls", c -> store.kinds().controls(c));
    }

    @Override
    public void changeRetention(Retention retention, Duration age) {
        requireRetention(retention);
        retention
                .setting()
                .require(
                        "The retention of " + retention.dbValue() + " ("
                                + retention.setting().name() + ")",
                        age);
        write("change retention " + retention.dbValue(), c -> {
            store.retentions().write(c, retention, age);
            audit.record(c, "change-retention", "retention:" + retention.dbValue(), age.toString());
            return null;
        });
    }

    @Override
    public void resetRetention(Retention retention) {
        requireRetention(retention);
        write("reset retention " + retention.dbValue(), c -> {
            store.retentions().delete(c, retention);
            audit.record(c, "reset-retention", "retention:" + retention.dbValue(), null);
            return null;
        });
    }

    @Override
    public List<RetentionControl> retentionControls() {
        return read("list retention controls", c -> store.retentions().controls(c));
    }

    private static void requireRetention(Retention retention) {
        if (retention == null) {
            throw new IllegalArgumentException(
                    "retention must not be null: one of " + java.util.Arrays.toString(Retention.values()));
        }
    }

    /** The values a kind change sets, for the audit. */
    private static String describe(KindChange change) {
        List<String> values = new ArrayList<>();
        if (change.maxAttempts() != null) {
            values.add("maxAttempts=" + change.maxAttempts());
        }
        if (change.retryPolicy() != null) {
            values.add("retryPolicy=" + change.retryPolicy());
        }
        if (change.executionTimeout() != null) {
            values.add("executionTimeout=" + change.executionTimeout());
        }
        return String.join(", ", values);
    }

    /** Applies {@code update} to the kind's row (null deletes it), tells every node, and records the change. */
    private void changeKind(String kind, String action, String detail, UnaryOperator<KindControl> update) {
        Names.require("Kind", kind, 200);
        write("change kind " + kind, c -> {
            KindControl current = store.kinds().lock(c, kind).orElse(new KindControl(kind, null, null, null));
            KindControl next = update.apply(current);
            if (next == null) {
                store.kinds().delete(c, kind);
            } else {
                store.kinds().write(c, next);
            }
            command(c, "reload", NodeTarget.all());
            audit.record(c, action, "kind:" + kind, detail);
            return null;
        });
    }

    @Override
    public List<QueueControl> queueControls() {
        return read(
                "list queue controls",
                c -> store.controls(c).stream().map(JdbcClusterAdmin::control).toList());
    }

    private static QueueControl control(ControlRow row) {
        return new QueueControl(
                row.queue(),
                row.paused(),
                row.concurrency(),
                row.pollIntervalMillis() == null ? null : Duration.ofMillis(row.pollIntervalMillis()),
                row.claimBatchSize());
    }

    /** The values a change sets, for the audit: {@code concurrency=4, pollInterval=PT1S}. */
    private static String describe(QueueChange change) {
        List<String> values = new ArrayList<>();
        if (change.concurrency() != null) {
            values.add("concurrency=" + change.concurrency());
        }
        if (change.pollInterval() != null) {
            values.add("pollInterval=" + change.pollInterval());
        }
        if (change.claimBatchSize() != null) {
            values.add("claimBatchSize=" + change.claimBatchSize());
        }
        return String.join(", ", values);
    }

    private void change(String queue, String action, String detail, UnaryOperator<ControlRow> update) {
        Names.require("Queue name", queue, 100);
        write("change queue " + queue, c -> {
            ControlRow current = store.lockControl(c, queue).orElse(new ControlRow(queue, false, null, null, null));
            store.writeControl(c, update.apply(current));
            command(c, "reload", NodeTarget.all());
            audit.record(c, action, "queue:" + queue, detail);
            return null;
        });
    }

    private void send(String command, NodeTarget target) {
        if (target == null) {
            throw new IllegalArgumentException(
                    "target must not be null; use NodeTarget.node(id), NodeTarget.group(name) or NodeTarget.all()");
        }
        write(command, c -> {
            command(c, command, target);
            audit.record(c, ACTIONS.get(command), describe(target), null);
            return null;
        });
    }

    /** The audit's name of each command an operator sends. */
    private static final Map<String, String> ACTIONS =
            Map.of("repoll", "repoll", "stop", "stop-processing", "start", "start-processing");

    /** A command's target, for the audit. */
    private static String describe(NodeTarget target) {
        if (target.nodeId() != null) {
            return "node:" + target.nodeId();
        }
        return target.group() != null ? "group:" + target.group() : "all-nodes";
    }

    private void command(Connection c, String command, NodeTarget target) throws SQLException {
        store.insertCommand(c, command, target.nodeId(), target.group());
        storage.dialect().notifyOnCommit(c, route.channel(), NodeAgent.COMMAND_WAKE_UP);
    }

    private <T> T read(String operation, Jdbc.ConnectionWork<T> work) {
        try {
            return storage.transactions().runStatement(operation, work);
        } catch (SQLException e) {
            throw new ErrandException(operation, e);
        }
    }

    private <T> T write(String operation, Jdbc.ConnectionWork<T> work) {
        try {
            T result = storage.transactions().run(operation, work);
            route.localCommands().signal();
            return result;
        } catch (SQLException e) {
            throw new ErrandException(operation, e);
        }
    }
}
