package dev.errand.internal.history;

import dev.errand.config.TablePrefix;
import dev.errand.history.Throughput;
import dev.errand.internal.runtime.Duty;
import dev.errand.internal.store.Storage;
import dev.errand.node.NodeStats;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Attempts ended per minute without the attempt history: each node's counters ({@link NodeStats}: succeeded,
 * failed, retried, which the engine keeps in memory anyway) are added, at each heartbeat interval, to the row of
 * its node and the database's current minute in {@code <prefix>node_throughput}. Nothing is written per task:
 * one statement per node per interval, none while nothing ended. Rows older than {@link #KEPT} are deleted.
 *
 * <p>What it loses: the counts of the last interval before a node stops or dies, and counts a node could not
 * write while the database was away are written at the next interval that reaches it (into that minute).
 */
public final class NodeThroughput {

    /** How long minute rows are kept: the longest window {@link #read} serves. */
    public static final Duration KEPT = Duration.ofHours(2);

    /** The duty's name in the node's health. */
    public static final String DUTY = "throughput counts";

    private static final long PRUNE_EVERY_MINUTES = 10;

    /** "No such table" on PostgreSQL (42P01), MariaDB, MySQL and H2 (42S02). */
    private static final Set<String> MISSING_TABLE = Set.of("42P01", "42S02");

    private static final Logger log = LoggerFactory.getLogger(NodeThroughput.class);

    private final Storage storage;
    private final String table;
    private final ThroughputQuery clock;

    /** Creates the store on a node's storage and tables. */
    public NodeThroughput(Storage storage, TablePrefix tables) {
        this.storage = storage;
        this.table = tables.nodeThroughputTable();
        this.clock = new ThroughputQuery(storage.dialect(), tables);
    }

    /**
     * The duty that writes this node's counts: on the heartbeat's thread and interval, on every processing node.
     * A new one for each start of the engine, whose counters start at zero.
     */
    public Duty duty(String nodeId, NodeStats stats, Duration interval) {
        Flusher flusher = new Flusher(nodeId, stats);
        return new Duty(DUTY, interval, Duty.Scope.EVERY_NODE, "heartbeat", flusher::flush);
    }

    /**
     * The last {@code minutes} minutes up to the database's time now, summed over every node, oldest first, every
     * minute present (zeros where nothing was counted).
     */
    public Throughput read(Connection c, int minutes) throws SQLException {
        Instant now = clock.now(c, storage.offsetMicros());
        long last = Math.floorDiv(now.getEpochSecond(), 60);
        long first = last - minutes + 1;
        long[][] counts = new long[minutes][3];
        try (PreparedStatement s = c.prepareStatement("SELECT minute_at, SUM(succeeded), SUM(failed), SUM(retried)"
                + " FROM " + table + " WHERE minute_at >= ? AND minute_at <= ? GROUP BY minute_at")) {
            s.setLong(1, first);
            s.setLong(2, last);
            try (ResultSet rows = s.executeQuery()) {
                while (rows.next()) {
                    int slot = (int) (rows.getLong(1) - first);
                    counts[slot][0] = rows.getLong(2);
                    counts[slot][1] = rows.getLong(3);
                    counts[slot][2] = rows.getLong(4);
                }
            }
        }
        List<Throughput.Bucket> buckets = new ArrayList<>(minutes);
        for (int i = 0; i < minutes; i++) {
            buckets.add(new Throughput.Bucket(
                    Instant.ofEpochSecond((first + i) * 60), counts[i][0], counts[i][1], counts[i][2]));
        }
        return new Throughput(now, Duration.ofMinutes(1), buckets);
    }

    /** The database's current minute, in whole minutes since the epoch. */
    private long currentMinute(Connection c) throws SQLException {
        return Math.floorDiv(clock.now(c, storage.offsetMicros()).getEpochSecond(), 60);
    }

    /** Adds counts to a node's row of the database's current minute; returns that minute. */
    long add(Connection c, String nodeId, long succeeded, long failed, long retried) throws SQLException {
        long minute = currentMinute(c);
        // Only this node writes its rows, from one thread: an UPDATE that finds none is followed by the INSERT
        // without a race, in every dialect alike.
        try (PreparedStatement update = c.prepareStatement("UPDATE " + table + " SET succeeded = succeeded + ?,"
                + " failed = failed + ?, retried = retried + ? WHERE node_id = ? AND minute_at = ?")) {
            update.setLong(1, succeeded);
            update.setLong(2, failed);
            update.setLong(3, retried);
            update.setString(4, nodeId);
            update.setLong(5, minute);
            if (update.executeUpdate() > 0) {
                return minute;
            }
        }
        try (PreparedStatement insert = c.prepareStatement(
                "INSERT INTO " + table + " (node_id, minute_at, succeeded, failed, retried) VALUES (?, ?, ?, ?, ?)")) {
            insert.setString(1, nodeId);
            insert.setLong(2, minute);
            insert.setLong(3, succeeded);
            insert.setLong(4, failed);
            insert.setLong(5, retried);
            insert.executeUpdate();
        }
        return minute;
    }

    /** Deletes every node's rows older than {@link #KEPT} before {@code minute}, dead nodes' too. */
    int prune(Connection c, long minute) throws SQLException {
        try (PreparedStatement delete = c.prepareStatement("DELETE FROM " + table + " WHERE minute_at < ?")) {
            delete.setLong(1, minute - KEPT.toMinutes());
            return delete.executeUpdate();
        }
    }

    /** One engine's counters, and what of them is written already. */
    private final class Flusher {
        private final String nodeId;
        private final NodeStats stats;
        private long succeeded;
        private long failed;
        private long retried;
        /** The minute of the last prune, 0 before the first. */
        private long prunedAt;
        /** Set when the table is missing (a schema kept by its own DDL without V19): nothing more is tried. */
        private boolean missing;

        Flusher(String nodeId, NodeStats stats) {
            this.nodeId = nodeId;
            this.stats = stats;
        }

        void flush() throws SQLException {
            long nowSucceeded = stats.succeeded();
            long nowFailed = stats.failed();
            long nowRetried = stats.retried();
            long addSucceeded = nowSucceeded - succeeded;
            long addFailed = nowFailed - failed;
            long addRetried = nowRetried - retried;
            boolean ended = addSucceeded != 0 || addFailed != 0 || addRetried != 0;
            if (missing || (!ended && prunedAt != 0)) {
                return;
            }
            long minute;
            try {
                minute = storage.transactions().run("throughput counts", c -> {
                    // The first run prunes even when nothing ended yet, and writes no row of zeros.
                    long written = ended ? add(c, nodeId, addSucceeded, addFailed, addRetried) : currentMinute(c);
                    if (written - prunedAt >= PRUNE_EVERY_MINUTES) {
                        prune(c, written);
                    }
                    return written;
                });
            } catch (SQLException e) {
                if (!MISSING_TABLE.contains(e.getSQLState())) {
                    throw e;
                }
                // Throughput is a view for operators: a schema without its table still runs tasks, healthy.
                missing = true;
                log.warn(
                        "Node {} counts no throughput per minute: table {} is missing. Apply migration"
                                + " V19__node_throughput.sql to see throughput without the attempt history",
                        nodeId,
                        table);
                return;
            }
            // Only once the transaction committed: a failed run leaves the counts for the next one.
            succeeded = nowSucceeded;
            failed = nowFailed;
            retried = nowRetried;
            if (minute - prunedAt >= PRUNE_EVERY_MINUTES) {
                prunedAt = minute;
            }
        }
    }
}
