package dev.errand.internal.cluster;

import dev.errand.internal.store.Dialect;
import dev.errand.internal.store.Micros;
import dev.errand.node.KindControl;
import dev.errand.spi.DatabaseClock;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SQL of the {@code kind_control} table: the cluster-wide run-time overrides of kinds' settings. A row whose
 * retry policy cannot be read (edited by hand) is logged and skipped, so that it never stops the other kinds'
 * controls from applying.
 */
public final class KindControlStore {

    private static final Logger log = LoggerFactory.getLogger(KindControlStore.class);
    private static final String COLUMNS = "kind, max_attempts, retry_policy, execution_timeout_ms";

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
    public KindControlStore(Dialect dialect, String prefix, DatabaseClock clock) {
        this.dialect = dialect;
        this.table = prefix + "kind_control";
        this.clock = clock;
    }

    /** Every kind's overrides, by kind. */
    public List<KindControl> controls(Connection c) throws SQLException {
        List<KindControl> rows = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("SELECT " + COLUMNS + " FROM " + table + " ORDER BY kind");
                ResultSet r = s.executeQuery()) {
            while (r.next()) {
                try {
                    rows.add(read(r));
                } catch (IllegalArgumentException e) {
                    log.error("Errand skips the run-time controls of kind '{}': {}", r.getString(1), e.getMessage());
                }
            }
        }
        return rows;
    }

    /** One kind's overrides, locked until the transaction ends, or empty. */
    public Optional<KindControl> lock(Connection c, String kind) throws SQLException {
        try (PreparedStatement s =
                c.prepareStatement("SELECT " + COLUMNS + " FROM " + table + " WHERE kind = ? FOR UPDATE")) {
            s.setString(1, kind);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? Optional.of(read(r)) : Optional.empty();
            }
        }
    }

    /** Writes one kind's overrides, inserting the row if it is missing. */
    public void write(Connection c, KindControl control) throws SQLException {
        long offsetMicros = Micros.of(clock.offset());
        try (PreparedStatement s = c.prepareStatement("UPDATE " + table
                + " SET max_attempts = ?, retry_policy = ?, execution_timeout_ms = ?, updated_at = "
                + dialect.timePlusMicros() + " WHERE kind = ?")) {
            bind(s, control);
            s.setLong(4, offsetMicros);
            s.setString(5, control.kind());
            if (s.executeUpdate() == 1) {
                return;
            }
        }
        try (PreparedStatement s = c.prepareStatement("INSERT INTO " + table
                + " (max_attempts, retry_policy, execution_timeout_ms, updated_at, kind) VALUES (?, ?, ?, "
                + dialect.timePlusMicros() + ", ?)")) {
            bind(s, control);
            s.setLong(4, offsetMicros);
            s.setString(5, control.kind());
            s.executeUpdate();
        }
    }

    /** Removes one kind's overrides. */
    public void delete(Connection c, String kind) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("DELETE FROM " + table + " WHERE kind = ?")) {
            s.setString(1, kind);
            s.executeUpdate();
        }
    }

    private static void bind(PreparedStatement s, KindControl control) throws SQLException {
        s.setObject(1, control.maxAttempts(), Types.INTEGER);
        s.setString(2, control.retryPolicy() == null ? null : RetryPolicyText.write(control.retryPolicy()));
        s.setObject(
                3,
                control.executionTimeout() == null
                        ? null
                        : control.executionTimeout().toMillis(),
                Types.BIGINT);
    }

    private static KindControl read(ResultSet r) throws SQLException {
        int maxAttempts = r.getInt(2);
        Integer max = r.wasNull() ? null : maxAttempts;
        String policy = r.getString(3);
        long timeoutMillis = r.getLong(4);
        Duration timeout = r.wasNull() ? null : Duration.ofMillis(timeoutMillis);
        return new KindControl(r.getString(1), max, policy == null ? null : RetryPolicyText.read(policy), timeout);
    }
}
