package dev.errand.internal.cluster;

import dev.errand.internal.store.Dialect;
import dev.errand.internal.store.Micros;
import dev.errand.internal.store.States;
import dev.errand.internal.store.TaskRows;
import dev.errand.spi.ClaimedTask;
import dev.errand.spi.DatabaseClock;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every statement on the cluster tables: the node registry, the leader lease, commands to nodes and
 * queue controls, plus the task-table statements that act on a node's death (fast rescue and the pin
 * policies). Times are the database's, plus the clock offset.
 */
public final class ClusterStore {

    /** A command row. */
    public record CommandRow(long id, String command, String targetNode, String targetGroup) {}

    /** A queue control row; null numbers keep each node's own setting. */
    public record ControlRow(
            String queue, boolean paused, Integer concurrency, Long pollIntervalMillis, Integer claimBatchSize) {}

    /**
     * A node row as stored.
     *
     * @param identity node id and comma-framed groups
     * @param flags processing, exclusive and state
     * @param times started, heartbeat, stopped, and whether the heartbeat is within the dead-node timeout
     * @param process host, pid and version
     */
    public record NodeRow(Identity identity, Flags flags, Times times, Process process) {

        /** The node's id and its groups, framed by commas (",a,b,"). */
        public record Identity(String nodeId, String groups) {}

        /** What the node does. */
        public record Flags(boolean processing, boolean exclusive, String state) {}

        /** When, on the database clock. */
        public record Times(Instant startedAt, Instant heartbeatAt, Instant stoppedAt, boolean fresh) {}

        /** Where it runs. */
        public record Process(String host, Long pid, String version) {}
    }

    private final Dialect dialect;
    private final DatabaseClock clock;
    private final String nodes;
    private final String leaders;
    private final String commands;
    private final String controls;
    private final String tasks;
    private final KindControlStore kinds;
    private final RetentionControlStore retentions;

    /**
     * Creates the statements for a table prefix.
     *
     * @param dialect the dialect
     * @param prefix the table prefix's value, such as {@code errand_}
     * @param clock the node's clock, whose offset each statement that means "now" reads
     */
    public ClusterStore(Dialect dialect, String prefix, DatabaseClock clock) {
        this.clock = clock;
        this.dialect = dialect;
        this.nodes = prefix + "node";
        this.leaders = prefix + "leader";
        this.commands = prefix + "node_command";
        this.controls = prefix + "queue_control";
        this.tasks = prefix + "task";
        this.kinds = new KindControlStore(dialect, prefix, clock);
        this.retentions = new RetentionControlStore(dialect, prefix, clock);
    }

    /** The statements of the kinds' run-time controls. */
    public KindControlStore kinds() {
        return kinds;
    }

    /** The statements of the retentions changed at run time. */
    public RetentionControlStore retentions() {
        return retentions;
    }

    /** Writes this node's row as started now, whether or not it existed. */
    public void register(Connection c, NodeRow.Identity identity, NodeRow.Flags flags, NodeRow.Process process)
            throws SQLException {
        long offsetMicros = offsetMicros();
        String set = " SET node_groups = ?, processing = ?, exclusive_mode = ?, state = ?, started_at = "
                + dialect.timePlusMicros() + ", heartbeat_at = " + dialect.timePlusMicros()
                + ", stopped_at = NULL, host = ?, pid = ?, version = ? WHERE node_id = ?";
        try (PreparedStatement update = c.prepareStatement("UPDATE " + nodes + set)) {
            int i = bindNode(update, 1, identity, flags, offsetMicros);
            bindProcess(update, i, process);
            update.setString(i + 3, identity.nodeId());
            if (update.executeUpdate() == 1) {
                return;
            }
        }
        String insert = "INSERT INTO " + nodes + " (node_groups, processing, exclusive_mode, state, started_at,"
                + " heartbeat_at, host, pid, version, node_id) VALUES (?, ?, ?, ?, " + dialect.timePlusMicros() + ", "
                + dialect.timePlusMicros() + ", ?, ?, ?, ?)";
        try (PreparedStatement statement = c.prepareStatement(insert)) {
            int i = bindNode(statement, 1, identity, flags, offsetMicros);
            bindProcess(statement, i, process);
            statement.setString(i + 3, identity.nodeId());
            statement.executeUpdate();
        }
    }

    private static int bindNode(
            PreparedStatement s, int index, NodeRow.Identity identity, NodeRow.Flags flags, long offsetMicros)
            throws SQLException {
        s.setString(index, identity.groups());
        s.setBoolean(index + 1, flags.processing());
        s.setBoolean(index + 2, flags.exclusive());
        s.setString(index + 3, flags.state());
        s.setLong(index + 4, offsetMicros);
        s.setLong(index + 5, offsetMicros);
        return index + 6;
    }

    private static void bindProcess(PreparedStatement s, int index, NodeRow.Process process) throws SQLException {
        s.setString(index, process.host());
        if (process.pid() == null) {
            s.setNull(index + 1, Types.BIGINT);
        } else {
            s.setLong(index + 1, process.pid());
        }
        s.setString(index + 2, process.version());
    }

    /**
     * Moves this node's heartbeat to now and writes whether it processes.
     *
     * @return false if the row is gone or no longer running (the leader declared the node dead)
     */
    public boolean heartbeat(Connection c, String nodeId, boolean processing) throws SQLException {
        long offsetMicros = offsetMicros();
        try (PreparedStatement s = c.prepareStatement("UPDATE " + nodes + " SET heartbeat_at = "
                + dialect.timePlusMicros() + ", processing = ? WHERE node_id = ? AND state = 'running'")) {
            s.setLong(1, offsetMicros);
            s.setBoolean(2, processing);
            s.setString(3, nodeId);
            return s.executeUpdate() == 1;
        }
    }

    /** Marks this node's row as stopped gracefully. */
    public void markStopped(Connection c, String nodeId) throws SQLException {
        long offsetMicros = offsetMicros();
        try (PreparedStatement s = c.prepareStatement("UPDATE " + nodes + " SET state = 'stopped', stopped_at = "
                + dialect.timePlusMicros() + ", processing = FALSE WHERE node_id = ?")) {
            s.setLong(1, offsetMicros);
            s.setString(2, nodeId);
            s.executeUpdate();
        }
    }

    /**
     * How many running tasks each node holds the lease of: one grouped count over the running rows, which the
     * rescue index ({@code state, lease_expires_at}; a partial index on running rows on PostgreSQL) serves. A
     * plain read, which waits for no lock.
     */
    public Map<String, Long> runningPerNode(Connection c) throws SQLException {
        Map<String, Long> running = new HashMap<>();
        try (PreparedStatement s = c.prepareStatement("SELECT lease_owner, COUNT(*) FROM " + tasks + " WHERE state = "
                        + States.RUNNING + " AND lease_owner IS NOT NULL GROUP BY lease_owner");
                ResultSet rows = s.executeQuery()) {
            while (rows.next()) {
                running.put(rows.getString(1), rows.getLong(2));
            }
        }
        return running;
    }

    /** Every node row, with whether its heartbeat is younger than {@code timeoutMicros}. */
    public List<NodeRow> nodes(Connection c, long timeoutMicros) throws SQLException {
        return rows(c, timeoutMicros, null);
    }

    /** The row of one node, if there is one, with whether its heartbeat is younger than {@code timeoutMicros}. */
    public Optional<NodeRow> node(Connection c, String nodeId, long timeoutMicros) throws SQLException {
        return rows(c, timeoutMicros, nodeId).stream().findFirst();
    }

    private List<NodeRow> rows(Connection c, long timeoutMicros, String nodeId) throws SQLException {
        long offsetMicros = offsetMicros();
        String sql = "SELECT node_id, node_groups, processing, exclusive_mode, state, started_at, heartbeat_at,"
                + " stopped_at, host, pid, version, CASE WHEN heartbeat_at >= " + dialect.timePlusMicros()
                + " THEN 1 ELSE 0 END AS fresh FROM " + nodes + (nodeId == null ? "" : " WHERE node_id = ?")
                + " ORDER BY node_id";
        List<NodeRow> rows = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setLong(1, offsetMicros - timeoutMicros);
            if (nodeId != null) {
                s.setString(2, nodeId);
            }
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    long pid = r.getLong("pid");
                    Long pidOrNull = r.wasNull() ? null : pid;
                    rows.add(new NodeRow(
                            new NodeRow.Identity(r.getString("node_id"), r.getString("node_groups")),
                            new NodeRow.Flags(
                                    r.getBoolean("processing"), r.getBoolean("exclusive_mode"), r.getString("state")),
                            new NodeRow.Times(
                                    dialect.readInstant(r, "started_at"),
                                    dialect.readInstant(r, "heartbeat_at"),
                                    dialect.readInstant(r, "stopped_at"),
                                    r.getInt("fresh") == 1),
                            new NodeRow.Process(r.getString("host"), pidOrNull, r.getString("version"))));
                }
            }
        }
        return rows;
    }

    /**
     * The last heartbeat of every running node, and whether it is older than {@code timeoutMicros} on the
     * database clock.
     */
    public Map<String, Heartbeat> runningHeartbeats(Connection c, long timeoutMicros) throws SQLException {
        long offsetMicros = offsetMicros();
        Map<String, Heartbeat> beats = new LinkedHashMap<>();
        try (PreparedStatement s = c.prepareStatement("SELECT node_id, heartbeat_at, CASE WHEN heartbeat_at < "
                + dialect.timePlusMicros() + " THEN 1 ELSE 0 END AS stale FROM " + nodes
                + " WHERE state = 'running' ORDER BY node_id")) {
            s.setLong(1, offsetMicros - timeoutMicros);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    beats.put(
                            r.getString("node_id"),
                            new Heartbeat(dialect.readInstant(r, "heartbeat_at"), r.getInt("stale") == 1));
                }
            }
        }
        return beats;
    }

    /**
     * A node's last heartbeat.
     *
     * @param at when, on the database clock
     * @param stale whether it is older than the dead-node timeout
     */
    public record Heartbeat(Instant at, boolean stale) {}

    /**
     * Marks a running node dead if its heartbeat is still older than {@code timeoutMicros}: a heartbeat
     * that arrived since it was read keeps it alive. A row locked now is skipped, not waited for.
     *
     * @return whether it marked the node
     */
    public boolean markDead(Connection c, String nodeId, long timeoutMicros) throws SQLException {
        long offsetMicros = offsetMicros();
        // A node row locked now belongs to a node inside its own heartbeat's transaction: stalled there
        // (SIGSTOP, a long pause) it would hold the lock as long as the stall lasts, and waiting for it would
        // stall the leader's sweep for every other node too. Skip it; the node stays a suspect for the next beat.
        try (PreparedStatement s = c.prepareStatement("SELECT node_id FROM " + nodes + " WHERE node_id = ? AND state"
                + " = 'running' AND heartbeat_at < " + dialect.timePlusMicros() + " FOR UPDATE SKIP LOCKED")) {
            s.setString(1, nodeId);
            s.setLong(2, offsetMicros - timeoutMicros);
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    return false;
                }
            }
        }
        try (PreparedStatement s =
                c.prepareStatement("UPDATE " + nodes + " SET state = 'dead', processing = FALSE WHERE node_id = ?")) {
            s.setString(1, nodeId);
            return s.executeUpdate() == 1;
        }
    }

    /** Which of these nodes are still marked dead; a node that came back and registered again is not. */
    public List<String> stillDead(Connection c, List<String> nodeIds) throws SQLException {
        if (nodeIds.isEmpty()) {
            return List.of();
        }
        try (PreparedStatement s = c.prepareStatement("SELECT node_id FROM " + nodes + " WHERE state = 'dead' AND"
                + " node_id IN (" + placeholders(nodeIds.size()) + ") ORDER BY node_id")) {
            bindStrings(s, nodeIds);
            return strings(s);
        }
    }

    /**
     * The nodes marked dead that still hold a lease that has not expired on a running task: after {@link
     * #expireLeasesOf}, those some of whose rows were locked and skipped, and, for a new leader, those the
     * leader before it had to skip. A plain read, which waits for no lock.
     */
    public List<String> deadHoldingLiveLeases(Connection c) throws SQLException {
        long offsetMicros = offsetMicros();
        try (PreparedStatement s = c.prepareStatement("SELECT DISTINCT lease_owner FROM " + tasks + " WHERE state = "
                + States.RUNNING + " AND lease_expires_at > " + dialect.timePlusMicros() + " AND lease_owner IN (SELECT"
                + " node_id FROM " + nodes + " WHERE state = 'dead') ORDER BY lease_owner")) {
            s.setLong(1, offsetMicros);
            return strings(s);
        }
    }

    /**
     * Ends now the leases of the running tasks that the dead nodes held and whose rows are not locked. A row
     * that is locked belongs to a transactional run of a node that is stalled, not gone (SIGSTOP, a long
     * pause, a partition: its connection is open): waiting for it would stall the leader's heartbeat as long
     * as the stall lasts, so it is skipped. The leader tries it again at its next beats while the node stays
     * dead, since the lock is often only a moment's (another statement's scan passing the row); a stalled
     * node's task is taken by its own lease and the rescue sweep (which skips locked rows too) otherwise.
     * The lease token is untouched: the rescue that follows changes it, which fences off a late commit.
     *
     * @return how many leases it ended
     */
    public int expireLeasesOf(Connection c, List<String> deadNodes) throws SQLException {
        long offsetMicros = offsetMicros();
        if (deadNodes.isEmpty()) {
            return 0;
        }
        List<Long> ids = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("SELECT id FROM " + tasks + " WHERE state = " + States.RUNNING
                + " AND lease_owner IN (" + placeholders(deadNodes.size()) + ") AND lease_expires_at > "
                + dialect.timePlusMicros() + " FOR UPDATE SKIP LOCKED")) {
            s.setLong(bindStrings(s, deadNodes), offsetMicros);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    ids.add(r.getLong(1));
                }
            }
        }
        if (ids.isEmpty()) {
            return 0;
        }
        try (PreparedStatement s = c.prepareStatement("UPDATE " + tasks + " SET lease_expires_at = "
                + dialect.timePlusMicros() + " WHERE id IN (" + placeholders(ids.size())
                + ") AND state = " + States.RUNNING)) {
            s.setLong(1, offsetMicros - 1);
            int i = 2;
            for (long id : ids) {
                s.setLong(i++, id);
            }
            return s.executeUpdate();
        }
    }

    /**
     * Takes or renews the named lease for {@code nodeId} until now plus {@code leaseMicros}, if it is free,
     * expired or already this node's.
     *
     * @return whether this node holds the lease now
     */
    public boolean holdLease(Connection c, String name, String nodeId, long leaseMicros) throws SQLException {
        long offsetMicros = offsetMicros();
        // acquired_at moves only when the holder changes, so operators see since when a leader leads.
        try (PreparedStatement s = c.prepareStatement("UPDATE " + leaders + " SET acquired_at = CASE WHEN node_id = ?"
                + " THEN acquired_at ELSE " + dialect.timePlusMicros() + " END, node_id = ?, expires_at = "
                + dialect.timePlusMicros() + " WHERE name = ? AND (node_id = ? OR expires_at < "
                + dialect.timePlusMicros() + ")")) {
            s.setString(1, nodeId);
            s.setLong(2, offsetMicros);
            s.setString(3, nodeId);
            s.setLong(4, offsetMicros + leaseMicros);
            s.setString(5, name);
            s.setString(6, nodeId);
            s.setLong(7, offsetMicros);
            return s.executeUpdate() == 1;
        }
    }

    /** Gives the named lease up if this node holds it, so that another node can take it at once. */
    public void releaseLease(Connection c, String name, String nodeId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("UPDATE " + leaders + " SET expires_at = acquired_at,"
                + " node_id = '' WHERE name = ? AND node_id = ?")) {
            s.setString(1, name);
            s.setString(2, nodeId);
            s.executeUpdate();
        }
    }

    /** The node holding the named lease now, if any. */
    public Optional<String> leaseHolder(Connection c, String name) throws SQLException {
        long offsetMicros = offsetMicros();
        try (PreparedStatement s = c.prepareStatement("SELECT node_id FROM " + leaders + " WHERE name = ? AND"
                + " expires_at >= " + dialect.timePlusMicros() + " AND node_id <> ''")) {
            s.setString(1, name);
            s.setLong(2, offsetMicros);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? Optional.of(r.getString(1)) : Optional.empty();
            }
        }
    }

    /** Inserts a command for one node, one group, or (both null) every node. */
    public void insertCommand(Connection c, String command, String targetNode, String targetGroup) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "INSERT INTO " + commands + " (command, target_node, target_group) VALUES (?, ?, ?)")) {
            s.setString(1, command);
            s.setString(2, targetNode);
            s.setString(3, targetGroup);
            s.executeUpdate();
        }
    }

    /** The highest command id so far, or 0; a starting node reads only commands after it. */
    public long lastCommandId(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT MAX(id) FROM " + commands);
                ResultSet r = s.executeQuery()) {
            return r.next() ? r.getLong(1) : 0;
        }
    }

    /** Commands after {@code afterId}, oldest first. */
    public List<CommandRow> commandsAfter(Connection c, long afterId) throws SQLException {
        List<CommandRow> rows = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(
                "SELECT id, command, target_node, target_group FROM " + commands + " WHERE id > ? ORDER BY id")) {
            s.setLong(1, afterId);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    rows.add(new CommandRow(r.getLong(1), r.getString(2), r.getString(3), r.getString(4)));
                }
            }
        }
        return rows;
    }

    /**
     * Deletes the rows of nodes that stopped or were declared dead more than {@code retentionMicros} ago: a
     * stopped node counts from its stop, a dead one from its last heartbeat. Running rows are never touched,
     * and a node that comes back registers again.
     *
     * @return how many rows it deleted
     */
    public int deleteGoneNodes(Connection c, long retentionMicros) throws SQLException {
        long offsetMicros = offsetMicros();
        try (PreparedStatement s = c.prepareStatement("DELETE FROM " + nodes + " WHERE state IN ('stopped', 'dead')"
                + " AND COALESCE(stopped_at, heartbeat_at) < " + dialect.timePlusMicros())) {
            s.setLong(1, offsetMicros - retentionMicros);
            return s.executeUpdate();
        }
    }

    /** Deletes commands older than {@code ageMicros}; every node has read them by then. */
    public int deleteCommandsOlderThan(Connection c, long ageMicros) throws SQLException {
        long offsetMicros = offsetMicros();
        try (PreparedStatement s =
                c.prepareStatement("DELETE FROM " + commands + " WHERE created_at < " + dialect.timePlusMicros())) {
            s.setLong(1, offsetMicros - ageMicros);
            return s.executeUpdate();
        }
    }

    /** Every queue control row. */
    public List<ControlRow> controls(Connection c) throws SQLException {
        List<ControlRow> rows = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("SELECT queue, paused, concurrency, poll_interval_ms,"
                        + " claim_batch_size FROM " + controls + " ORDER BY queue");
                ResultSet r = s.executeQuery()) {
            while (r.next()) {
                rows.add(new ControlRow(
                        r.getString(1),
                        r.getBoolean(2),
                        (Integer) nullable(r, r.getInt(3)),
                        (Long) nullable(r, r.getLong(4)),
                        (Integer) nullable(r, r.getInt(5))));
            }
        }
        return rows;
    }

    /** Writes one queue's control row, inserting it if it is missing. */
    public void writeControl(Connection c, ControlRow row) throws SQLException {
        long offsetMicros = offsetMicros();
        String set = " SET paused = ?, concurrency = ?, poll_interval_ms = ?, claim_batch_size = ?, updated_at = "
                + dialect.timePlusMicros() + " WHERE queue = ?";
        try (PreparedStatement s = c.prepareStatement("UPDATE " + controls + set)) {
            bindControl(s, row, offsetMicros);
            if (s.executeUpdate() == 1) {
                return;
            }
        }
        try (PreparedStatement s = c.prepareStatement("INSERT INTO " + controls + " (paused, concurrency,"
                + " poll_interval_ms, claim_batch_size, updated_at, queue) VALUES (?, ?, ?, ?, "
                + dialect.timePlusMicros() + ", ?)")) {
            bindControl(s, row, offsetMicros);
            s.executeUpdate();
        }
    }

    /** Reads one queue's control row, locked for update, if it exists. */
    public Optional<ControlRow> lockControl(Connection c, String queue) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT queue, paused, concurrency, poll_interval_ms,"
                + " claim_batch_size FROM " + controls + " WHERE queue = ? FOR UPDATE")) {
            s.setString(1, queue);
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    return Optional.empty();
                }
                return Optional.of(new ControlRow(
                        r.getString(1),
                        r.getBoolean(2),
                        (Integer) nullable(r, r.getInt(3)),
                        (Long) nullable(r, r.getLong(4)),
                        (Integer) nullable(r, r.getInt(5))));
            }
        }
    }

    private static void bindControl(PreparedStatement s, ControlRow row, long offsetMicros) throws SQLException {
        s.setBoolean(1, row.paused());
        s.setObject(2, row.concurrency(), Types.INTEGER);
        s.setObject(3, row.pollIntervalMillis(), Types.BIGINT);
        s.setObject(4, row.claimBatchSize(), Types.INTEGER);
        s.setLong(5, offsetMicros);
        s.setString(6, row.queue());
    }

    private static Object nullable(ResultSet r, Object value) throws SQLException {
        return r.wasNull() ? null : value;
    }

    /**
     * Clears the node pin of pending tasks of {@code kinds} pinned to a node that is not running, so that
     * their group (or, without one, any node) takes them.
     *
     * @return how many tasks it released
     */
    public int unpinFromAbsentNodes(Connection c, List<String> kinds, long timeoutMicros) throws SQLException {
        long offsetMicros = offsetMicros();
        if (kinds.isEmpty()) {
            return 0;
        }
        try (PreparedStatement s = c.prepareStatement("UPDATE " + tasks + " SET node_id = NULL WHERE state = "
                + States.PENDING + " AND node_id IS NOT NULL AND kind IN (" + placeholders(kinds.size()) + ") AND "
                + absentNode())) {
            int i = bindStrings(s, kinds);
            s.setLong(i, offsetMicros - timeoutMicros);
            return s.executeUpdate();
        }
    }

    /**
     * The pending tasks of {@code kind} pinned to a node that is not running, due for longer than
     * {@code waitMicros}, oldest id first: the pin policy fails them.
     */
    public List<PinnedTask> pinnedToAbsentNodes(
            Connection c, String kind, long waitMicros, long timeoutMicros, int limit) throws SQLException {
        long offsetMicros = offsetMicros();
        try (PreparedStatement s = c.prepareStatement("SELECT " + TaskRows.CLAIMED_COLUMNS + ", node_id FROM " + tasks
                + " WHERE state = " + States.PENDING + " AND node_id IS NOT NULL AND kind = ? AND run_at < "
                + dialect.timePlusMicros() + " AND " + absentNode() + " ORDER BY id LIMIT " + limit)) {
            s.setString(1, kind);
            s.setLong(2, offsetMicros - waitMicros);
            s.setLong(3, offsetMicros - timeoutMicros);
            List<PinnedTask> pinned = new ArrayList<>();
            try (ResultSet rows = s.executeQuery()) {
                while (rows.next()) {
                    pinned.add(new PinnedTask(TaskRows.claimed(rows, 0, 0), rows.getString("node_id")));
                }
            }
            return pinned;
        }
    }

    /**
     * A pending task pinned to a node that is not alive.
     *
     * @param task the task, as a claim would read it (no lease)
     * @param node the node it is pinned to
     */
    public record PinnedTask(ClaimedTask task, String node) {}

    /** A task's node is absent: no row for it, or a row that is not running with a fresh heartbeat. */
    private String absentNode() {
        return "NOT EXISTS (SELECT 1 FROM " + nodes + " n WHERE n.node_id = " + tasks + ".node_id"
                + " AND n.state = 'running' AND n.heartbeat_at >= " + dialect.timePlusMicros() + ")";
    }

    /** Binds {@code values} from the first parameter on; returns the index of the next one. */
    private static int bindStrings(PreparedStatement s, List<String> values) throws SQLException {
        int i = 1;
        for (String value : values) {
            s.setString(i++, value);
        }
        return i;
    }

    /** The first column of every row the statement reads. */
    private static List<String> strings(PreparedStatement s) throws SQLException {
        List<String> values = new ArrayList<>();
        try (ResultSet r = s.executeQuery()) {
            while (r.next()) {
                values.add(r.getString(1));
            }
        }
        return values;
    }

    private static String placeholders(int count) {
        return String.join(", ", Collections.nCopies(count, "?"));
    }

    /** The clock's offset in microseconds, read for each statement that means "now". */
    private long offsetMicros() {
        return Micros.of(clock.offset());
    }
}
