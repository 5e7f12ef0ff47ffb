package dev.errand.internal.cluster;

import dev.errand.internal.store.Dialect;
import dev.errand.internal.store.Micros;
import dev.errand.internal.store.Transactions;
import dev.errand.node.Retention;
import dev.errand.node.RetentionControl;
import dev.errand.spi.DatabaseClock;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SQL of the {@code retention_control} table: retentions changed at run time for the whole cluster, which the
 * leader's pruners read at each run. A row that cannot be read (a name or an age edited by hand) is logged and
 * skipped, so that it never stops the other retentions from applying.
 */
public final class RetentionControlStore {

    private static final Logger log = LoggerFactory.getLogger(RetentionControlStore.class);

    private final Dialect dialect;
    private final String table;
    private final DatabaseClock clock;

    /**
     * Creates the statements for a table prefix.
     *
     * @param dialect the dialect
     * @param prefix the table prefix's value, such as {@code errand_}
     * @param clock the node's clock, whose offset the time of each change reads
     */
    public RetentionControlStore(Dialect dialect, String prefix, DatabaseClock clock) {
        this.dialect = dialect;
        this.table = prefix + "retention_control";
        this.clock = clock;
    }

    /** Every retention changed at run time, in the order of {@link Retention}. */
    public List<RetentionControl> controls(Connection c) throws SQLException {
        Map<Retention, RetentionControl> controls = new EnumMap<>(Retention.class);
        try (PreparedStatement s = c.prepareStatement("SELECT name, retention_ms, updated_at FROM " + table);
                ResultSet r = s.executeQuery()) {
            while (r.next()) {
                String name = r.getString("name");
                long millis = r.getLong("retention_ms");
                try {
                    if (millis < 0) {
                        throw new IllegalArgumentException("a negative retention of " + millis + " ms");
                    }
                    Retention retention = Retention.fromDbValue(name);
                    controls.put(
                            retention,
                            new RetentionControl(
                                    retention, Duration.ofMillis(millis), dialect.readInstant(r, "updated_at")));
                } catch (IllegalArgumentException e) {
                    log.error("Errand skips the run-time retention '{}': {}", name, e.getMessage());
                }
            }
        }
        return new ArrayList<>(controls.values());
    }

    /** The retentions changed at run time, read in a transaction of their own. */
    public Map<Retention, Duration> current(Transactions transactions) throws SQLException {
        Map<Retention, Duration> current = new EnumMap<>(Retention.class);
        transactions
                .run("read retentions", c -> controls(c))
                .forEach(control -> current.put(control.retention(), control.age()));
        return current;
    }

    /** Sets one retention, inserting its row if it is missing. */
    public void write(Connection c, Retention retention, Duration age) throws SQLException {
        long offsetMicros = Micros.of(clock.offset());
        try (PreparedStatement s = c.prepareStatement("UPDATE " + table + " SET retention_ms = ?, updated_at = "
                + dialect.timePlusMicros() + " WHERE name = ?")) {
            s.setLong(1, age.toMillis());
            s.setLong(2, offsetMicros);
            s.setString(3, retention.dbValue());
            if (s.executeUpdate() == 1) {
                return;
            }
        }
        try (PreparedStatement s = c.prepareStatement("INSERT INTO " + table
                + " (name, retention_ms, updated_at) VALUES (?, ?, " + dialect.timePlusMicros() + ")")) {
            s.setString(1, retention.dbValue());
            s.setLong(2, age.toMillis());
            s.setLong(3, offsetMicros);
            s.executeUpdate();
        }
    }

    /** Removes one retention's run-time value. */
    public void delete(Connection c, Retention retention) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("DELETE FROM " + table + " WHERE name = ?")) {
            s.setString(1, retention.dbValue());
            s.executeUpdate();
        }
    }

    /** The age a pruner uses now: the run-time value if one is set, else the node's own (null for none). */
    public static Duration effective(Map<Retention, Duration> current, Retention retention, Duration configured) {
        return current.getOrDefault(retention, configured);
    }
}
