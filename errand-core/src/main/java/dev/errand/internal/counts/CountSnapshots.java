package dev.errand.internal.counts;

import dev.errand.admin.TaskCounts;
import dev.errand.admin.TaskCountsSnapshot;
import dev.errand.config.TablePrefix;
import dev.errand.internal.store.Dialect;
import dev.errand.internal.store.Jdbc;
import dev.errand.internal.store.Micros;
import dev.errand.internal.store.Storage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;

/**
 * Reads, claims and writes the {@code count_snapshot} table. A stale snapshot is recounted by the one caller
 * whose claim (an update of {@code counting_since} that only matches a stale, unclaimed row) succeeds; the
 * others return the stored counts as they are. Each step is a short transaction of its own, so no lock is held
 * while the task table is scanned.
 */
public final class CountSnapshots {

    /** After this long, a claim is taken to belong to a node that died while counting and is taken over. */
    public static final Duration ABANDONED_AFTER = Duration.ofMinutes(5);

    private final Storage storage;
    private final Dialect dialect;
    private final String table;
    private final String now;

    /**
     * Creates the snapshots of a table prefix.
     *
     * @param storage the node's transactions, dialect and clock
     * @param tables the table names
     */
    public CountSnapshots(Storage storage, TablePrefix tables) {
        this.storage = storage;
        this.dialect = storage.dialect();
        this.table = tables.countSnapshotTable();
        this.now = dialect.timePlusMicros();
    }

    /**
     * The snapshot {@code name}, counted again with {@code count} if it is older than {@code maxAge} and no
     * other caller is counting it.
     */
    public TaskCountsSnapshot read(String name, Duration maxAge, Jdbc.ConnectionWork<TaskCounts> count)
            throws SQLException {
        Stored stored = storage.transactions().run("counts snapshot read", c -> stored(c, name));
        if (stored.body != null && !stored.olderThan(maxAge)) {
            return new TaskCountsSnapshot(stored.body.counts(), stored.body.took(), stored.readAt, false);
        }
        if (!claim(name, maxAge, stored.exists)) {
            if (stored.body != null) {
                return new TaskCountsSnapshot(stored.body.counts(), stored.body.took(), stored.readAt, true);
            }
            // The first count of this snapshot is under way elsewhere: count without storing rather than wait.
            CountsJson.Stored counted = count(count);
            return new TaskCountsSnapshot(
                    counted.counts(), counted.took(), counted.counts().databaseTime(), true);
        }
        CountsJson.Stored counted;
        try {
            counted = count(count);
        } catch (SQLException | RuntimeException e) {
            release(name, e);
            throw e;
        }
        storage.transactions().run("counts snapshot write", c -> write(c, name, counted));
        return new TaskCountsSnapshot(
                counted.counts(), counted.took(), counted.counts().databaseTime(), false);
    }

    private CountsJson.Stored count(Jdbc.ConnectionWork<TaskCounts> count) throws SQLException {
        long start = System.nanoTime();
        TaskCounts counts = storage.transactions().run("counts", count);
        // Whole microseconds, as the snapshot stores it, so that a count and its stored copy agree.
        return new CountsJson.Stored(counts, Duration.ofNanos((System.nanoTime() - start) / 1_000 * 1_000));
    }

    private Stored stored(Connection c, String name) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT " + now + " AS db_now, (SELECT body FROM " + table
                + " WHERE name = ?) AS body," + " (SELECT COUNT(*) FROM " + table + " WHERE name = ?) AS found")) {
            s.setLong(1, storage.offsetMicros());
            s.setString(2, name);
            s.setString(3, name);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                Instant readAt = dialect.readInstant(r, "db_now");
                String body = r.getString("body");
                return new Stored(r.getLong("found") > 0, body == null ? null : CountsJson.read(body), readAt);
            }
        }
    }

    /** Marks the snapshot as being counted by this caller; false if it is fresh again or another caller counts. */
    private boolean claim(String name, Duration maxAge, boolean exists) throws SQLException {
        long offset = storage.offsetMicros();
        if (!exists) {
            try {
                return storage.transactions().run("counts snapshot claim", c -> {
                    try (PreparedStatement s = c.prepareStatement(
                            "INSERT INTO " + table + " (name, counting_since) VALUES (?, " + now + ")")) {
                        s.setString(1, name);
                        s.setLong(2, offset);
                        return s.executeUpdate() == 1;
                    }
                });
            } catch (SQLException e) {
                if (dialect.isUniqueViolation(e)) {
                    return false;
                }
                throw e;
            }
        }
        return storage.transactions().run("counts snapshot claim", c -> {
            try (PreparedStatement s = c.prepareStatement("UPDATE " + table + " SET counting_since = " + now
                    + " WHERE name = ? AND (counted_at IS NULL OR counted_at < " + now + ")"
                    + " AND (counting_since IS NULL OR counting_since < " + now + ")")) {
                s.setLong(1, offset);
                s.setString(2, name);
                s.setLong(3, Micros.plus(offset, -Micros.ofAge(maxAge)));
                s.setLong(4, Micros.plus(offset, -Micros.ofAge(ABANDONED_AFTER)));
                return s.executeUpdate() == 1;
            }
        });
    }

    private boolean write(Connection c, String name, CountsJson.Stored counted) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("UPDATE " + table + " SET body = ?, counted_at = "
                + dialect.timestampParam() + ", counting_since = NULL WHERE name = ?")) {
            s.setString(1, CountsJson.write(counted.counts(), counted.took()));
            s.setObject(2, dialect.timestampValue(counted.counts().databaseTime()));
            s.setString(3, name);
            return s.executeUpdate() == 1;
        }
    }

    /** Gives the claim back after a failed count, so that the next caller counts at once. */
    private void release(String name, Exception failure) {
        try {
            storage.transactions().run("counts snapshot release", c -> {
                try (PreparedStatement s =
                        c.prepareStatement("UPDATE " + table + " SET counting_since = NULL WHERE name = ?")) {
                    s.setString(1, name);
                    return s.executeUpdate();
                }
            });
        } catch (SQLException | RuntimeException e) {
            // The claim then ends on its own after ABANDONED_AFTER; the count's own failure is what is thrown.
            failure.addSuppressed(e);
        }
    }

    /** The stored row: whether it exists, its counts (null before the first count) and the read's time. */
    private record Stored(boolean exists, CountsJson.Stored body, Instant readAt) {
        boolean olderThan(Duration maxAge) {
            return Duration.between(body.counts().databaseTime(), readAt).compareTo(maxAge) > 0;
        }
    }
}
