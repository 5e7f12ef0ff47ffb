package dev.errand.spring;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import javax.sql.DataSource;
import org.springframework.dao.DataAccessResourceFailureException;

/**
 * Counts read from the task table with SQL, for the health indicator, the actuator endpoint and the queue
 * gauges. All times come from the database clock, never from the JVM: {@code CURRENT_TIMESTAMP}, or
 * {@code UTC_TIMESTAMP(6)} on MariaDB and MySQL, whose task table holds UTC. Results are cached for
 * {@code cacheDuration}, so frequent health checks and metric scrapes cost at most one set of queries per
 * period. Thread-safe.
 */
public final class TaskStatistics {

    private final DataSource dataSource;
    private final String table;
    private final String nowSql;
    private final Duration overdueAfter;
    private final Cached<Load> load;
    private final Cached<Overview> overview;

    /**
     * Creates the statistics.
     *
     * @param dataSource Errand's DataSource
     * @param taskTable the task table's name, such as {@code errand_task}
     * @param cacheDuration how long results are reused; zero reads the table every time
     * @param overdueAfter how long past its {@code run_at} a pending task must wait to count as overdue
     */
    public TaskStatistics(DataSource dataSource, String taskTable, Duration cacheDuration, Duration overdueAfter) {
        this(dataSource, taskTable, cacheDuration, overdueAfter, "postgresql");
    }

    /**
     * Creates the statistics for a database dialect.
     *
     * @param dataSource Errand's DataSource
     * @param taskTable the task table's name, such as {@code errand_task}
     * @param cacheDuration how long results are reused; zero reads the table every time
     * @param overdueAfter how long past its {@code run_at} a pending task must wait to count as overdue
     * @param dialect the dialect name as {@code Errand.dialectName()} gives it; it picks the SQL for "now"
     */
    public TaskStatistics(DataSource dataSource, String taskTable, Duration cacheDuration, Duration overdueAfter,
            String dialect) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource must not be null");
        this.table = Objects.requireNonNull(taskTable, "taskTable must not be null");
        // MariaDB and MySQL tables hold UTC in DATETIME columns; the others compare time zone-aware values.
        this.nowSql = "mariadb".equals(dialect) || "mysql".equals(dialect) ? "UTC_TIMESTAMP(6)" : "CURRENT_TIMESTAMP";
        this.overdueAfter = Objects.requireNonNull(overdueAfter, "overdueAfter must not be null");
        Objects.requireNonNull(cacheDuration, "cacheDuration must not be null");
        this.load = new Cached<>(cacheDuration, this::readLoad);
        this.overview = new Cached<>(cacheDuration, this::readOverview);
    }

    /**
     * Due tasks per queue, failed and overdue tasks: cheap queries on the table's partial indexes.
     *
     * @throws org.springframework.dao.DataAccessException if the database cannot be read
     */
    public Load load() {
        return load.get();
    }

    /**
     * Task counts by state, kind and queue, and the nodes holding running tasks: one scan of the table.
     *
     * @throws org.springframework.dao.DataAccessException if the database cannot be read
     */
    public Overview overview() {
        return overview.get();
    }

    /** How long past its {@code run_at} a pending task waits before it counts as overdue. */
    public Duration overdueAfter() {
        return overdueAfter;
    }

    private Load readLoad(Connection c) throws SQLException {
        Instant now = databaseTime(c);
        Map<String, QueueLoad> queues = new TreeMap<>();
        long overdue = 0;
        // One pass over the pending rows that are due: depth, oldest run_at and overdue count per queue.
        try (PreparedStatement s = c.prepareStatement("SELECT queue, COUNT(*), MIN(run_at),"
                + " SUM(CASE WHEN run_at < ? THEN 1 ELSE 0 END) FROM " + table
                + " WHERE state = 'pending' AND run_at <= " + nowSql + " GROUP BY queue")) {
            s.setTimestamp(1, Timestamp.from(now.minus(overdueAfter)));
            try (ResultSet row = s.executeQuery()) {
                while (row.next()) {
                    Timestamp oldest = row.getTimestamp(3);
                    Duration lag = oldest == null ? Duration.ZERO : Duration.between(oldest.toInstant(), now);
                    queues.put(row.getString(1), new QueueLoad(row.getLong(2), lag.isNegative() ? Duration.ZERO : lag));
                    overdue += row.getLong(4);
                }
            }
        }
        long failed;
        try (PreparedStatement s = c.prepareStatement("SELECT COUNT(*) FROM " + table + " WHERE state = 'failed'");
                ResultSet row = s.executeQuery()) {
            row.next();
            failed = row.getLong(1);
        }
        return new Load(now, queues, failed, overdue);
    }

    private Overview readOverview(Connection c) throws SQLException {
        Instant now = databaseTime(c);
        List<Count> counts = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("SELECT state, kind, queue, COUNT(*) FROM " + table
                + " GROUP BY state, kind, queue ORDER BY kind, queue, state");
                ResultSet row = s.executeQuery()) {
            while (row.next()) {
                counts.add(new Count(row.getString(1), row.getString(2), row.getString(3), row.getLong(4)));
            }
        }
        List<String> owners = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("SELECT DISTINCT lease_owner FROM " + table
                + " WHERE state = 'running' AND lease_owner IS NOT NULL ORDER BY lease_owner");
                ResultSet row = s.executeQuery()) {
            while (row.next()) {
                owners.add(row.getString(1));
            }
        }
        return new Overview(now, counts, owners);
    }

    private Instant databaseTime(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT " + nowSql); ResultSet row = s.executeQuery()) {
            row.next();
            // getTimestamp on both sides (here and in the queries) keeps the session's time-zone handling symmetric.
            return row.getTimestamp(1).toInstant();
        }
    }

    private <T> T read(Query<T> query) {
        try (Connection c = dataSource.getConnection()) {
            boolean autoCommit = c.getAutoCommit();
            // One transaction: CURRENT_TIMESTAMP is then the same instant in every statement.
            c.setAutoCommit(false);
            try {
                T result = query.run(c);
                c.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(autoCommit);
            }
        } catch (SQLException e) {
            throw new DataAccessResourceFailureException("Errand could not read task statistics from " + table
                    + ": " + e.getMessage(), e);
        }
    }

    /**
     * The load on the queues at one moment.
     *
     * @param databaseTime the database's time when it was read
     * @param queues due tasks per queue that has any
     * @param failed tasks in state {@code failed}
     * @param overdue pending tasks due for longer than {@link #overdueAfter()}
     */
    public record Load(Instant databaseTime, Map<String, QueueLoad> queues, long failed, long overdue) {

        /** Copies the map. */
        public Load {
            queues = Map.copyOf(queues);
        }

        /** The load of {@code queue}; zero when it has no due task. */
        public QueueLoad queue(String queue) {
            return queues.getOrDefault(queue, QueueLoad.EMPTY);
        }
    }

    /**
     * The due tasks of one queue.
     *
     * @param due pending tasks whose {@code run_at} has passed: the queue's depth
     * @param lag how long the oldest of them has waited since its {@code run_at}; zero when none is due
     */
    public record QueueLoad(long due, Duration lag) {
        static final QueueLoad EMPTY = new QueueLoad(0, Duration.ZERO);
    }

    /**
     * Counts of every task in the table.
     *
     * @param databaseTime the database's time when it was read
     * @param counts tasks per state, kind and queue
     * @param leaseOwners the distinct nodes that hold running tasks
     */
    public record Overview(Instant databaseTime, List<Count> counts, List<String> leaseOwners) {

        /** Copies the lists. */
        public Overview {
            counts = List.copyOf(counts);
            leaseOwners = List.copyOf(leaseOwners);
        }

        /** Tasks per state, over every kind and queue. */
        public Map<String, Long> byState() {
            Map<String, Long> states = new LinkedHashMap<>();
            counts.forEach(c -> states.merge(c.state(), c.count(), Long::sum));
            return states;
        }
    }

    /**
     * The number of tasks with one state, kind and queue.
     *
     * @param state the state, as stored ({@code pending}, {@code running}, ...)
     * @param kind the kind
     * @param queue the queue
     * @param count how many
     */
    public record Count(String state, String kind, String queue, long count) {}

    @FunctionalInterface
    private interface Query<T> {
        T run(Connection connection) throws SQLException;
    }

    /** A value read at most once per period; a failed read is not cached. */
    private final class Cached<T> {
        private final long ttlNanos;
        private final Query<T> query;
        private T value;
        private long readAt;

        Cached(Duration ttl, Query<T> query) {
            this.ttlNanos = ttl.toNanos();
            this.query = query;
        }

        // Synchronized: concurrent scrapes wait for one read instead of each querying the database.
        synchronized T get() {
            long now = System.nanoTime();
            if (value == null || now - readAt >= ttlNanos) {
                value = read(query);
                readAt = System.nanoTime();
            }
            return value;
        }
    }
}
