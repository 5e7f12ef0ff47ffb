package dev.errand.internal.history;

import dev.errand.config.TablePrefix;
import dev.errand.history.AttemptOutcome;
import dev.errand.history.Throughput;
import dev.errand.internal.store.Dialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Attempts that ended per time bucket, counted in one grouped read of the attempt history's rows since the first
 * bucket, which its {@code finished_at} index serves. The bucket of a row is computed in SQL from its instant in
 * seconds since the epoch, so that no row is sent to the JVM.
 */
final class ThroughputQuery {

    private final Dialect dialect;
    private final String sql;

    ThroughputQuery(Dialect dialect, TablePrefix tables) {
        this.dialect = dialect;
        // Seconds since the epoch of a UTC instant; as a double on PostgreSQL and H2, where EXTRACT gives a NUMERIC
        // whose arithmetic cost a quarter more (PostgreSQL, 41,727 rows in the hour: 37-43 ms against 51-59 ms).
        // MariaDB stores UTC in DATETIME: TIMESTAMPDIFF counts from the
        // epoch without the session's time zone, which UNIX_TIMESTAMP would apply.
        String epoch = dialect.name().equals("mariadb")
                ? "TIMESTAMPDIFF(SECOND, '1970-01-01 00:00:00', finished_at)"
                : "CAST(EXTRACT(EPOCH FROM finished_at) AS DOUBLE PRECISION)";
        this.sql = "SELECT slot, SUM(CASE WHEN outcome = '" + AttemptOutcome.SUCCEEDED.dbValue()
                + "' THEN 1 ELSE 0 END), SUM(CASE WHEN outcome IN ('" + AttemptOutcome.FAILED.dbValue() + "', '"
                + AttemptOutcome.EXPIRED.dbValue() + "', '" + AttemptOutcome.NODE_ABSENT.dbValue()
                + "') THEN 1 ELSE 0 END), SUM(CASE WHEN outcome = '" + AttemptOutcome.RETRIED.dbValue()
                + "' THEN 1 ELSE 0 END) FROM (SELECT FLOOR((" + epoch + " - ?) / ?) AS slot, outcome FROM "
                + tables.attemptTable() + " WHERE finished_at >= " + dialect.timestampParam() + " AND finished_at < "
                + dialect.timePlusMicros()
                + ") x GROUP BY slot";
    }

    /**
     * The last {@code count} buckets up to {@code now}, and before the database's time plus one bucket. That
     * upper bound reads the clock in the statement, which H2 needs: without it, H2 gave a statement of the same
     * text and parameters (the same minute) the result of an earlier run although other sessions had written rows
     * since (on 2.4 with unpooled connections and on 2.5: zero attempts for as long as a test waited).
     */
    Throughput read(Connection c, Instant now, Duration bucket, int count, long offsetMicros) throws SQLException {
        long seconds = bucket.toSeconds();
        long lastStart = Math.floorDiv(now.getEpochSecond(), seconds) * seconds;
        long firstStart = lastStart - (count - 1) * seconds;
        long[][] counts = new long[count][3];
        try (PreparedStatement statement = c.prepareStatement(sql)) {
            statement.setLong(1, firstStart);
            statement.setLong(2, seconds);
            statement.setObject(3, dialect.timestampValue(Instant.ofEpochSecond(firstStart)));
            statement.setLong(4, offsetMicros + seconds * 1_000_000L);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    long slot = rows.getLong(1);
                    // A row finished after now (a clock offset in tests) or at the edge is outside the window.
                    if (slot >= 0 && slot < count) {
                        counts[(int) slot][0] += rows.getLong(2);
                        counts[(int) slot][1] += rows.getLong(3);
                        counts[(int) slot][2] += rows.getLong(4);
                    }
                }
            }
        }
        List<Throughput.Bucket> buckets = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            buckets.add(new Throughput.Bucket(
                    Instant.ofEpochSecond(firstStart + i * seconds), counts[i][0], counts[i][1], counts[i][2]));
        }
        return new Throughput(now, bucket, buckets);
    }

    /** The database's time now, plus the clock's offset. */
    Instant now(Connection c, long offsetMicros) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement("SELECT " + dialect.timePlusMicros() + " AS now_at")) {
            statement.setLong(1, offsetMicros);
            try (ResultSet row = statement.executeQuery()) {
                row.next();
                return dialect.readInstant(row, "now_at");
            }
        }
    }
}
