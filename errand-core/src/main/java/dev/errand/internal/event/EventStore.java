package dev.errand.internal.event;

import dev.errand.config.TablePrefix;
import dev.errand.event.EventWaiters;
import dev.errand.event.PrematureEvent;
import dev.errand.event.WaitingTask;
import dev.errand.internal.store.Dialect;
import dev.errand.internal.store.Micros;
import dev.errand.internal.store.States;
import dev.errand.internal.store.TaskGate;
import dev.errand.spi.DatabaseClock;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The SQL of events: conditions of waiting tasks, premature events, and the striped locks that make a
 * trigger and an enqueue of the same event see each other. Every statement is set-based: triggering an
 * event that 10,000 tasks wait for takes the same four statements as triggering one.
 */
public final class EventStore {

    /** How many rows {@code event_lock} holds; an event's stripe is its name's hash modulo this. */
    public static final int STRIPES = 1024;

    private final Dialect dialect;
    private final DatabaseClock clock;
    private final String taskTable;
    private final String conditionTable;
    private final String prematureTable;
    private final String lockTable;
    private final String now;

    /**
     * Creates the statements.
     *
     * @param dialect the database's dialect
     * @param tables the table prefix, which names the task table and the event tables
     * @param clock the node's clock, whose offset each statement that means "now" reads
     */
    public EventStore(Dialect dialect, TablePrefix tables, DatabaseClock clock) {
        this.clock = clock;
        this.dialect = dialect;
        this.taskTable = tables.taskTable();
        this.conditionTable = tables.conditionTable();
        this.prematureTable = tables.prematureEventTable();
        this.lockTable = tables.eventLockTable();
        this.now = dialect.timePlusMicros();
    }

    /** The stripe of {@code event}: {@link String#hashCode()} is the same on every JVM. */
    public static int stripeOf(String event) {
        return Math.floorMod(event.hashCode(), STRIPES);
    }

    /**
     * Locks the stripes of {@code events} until the transaction ends, in ascending order so that two
     * transactions that lock several never deadlock on each other.
     */
    public void lockStripes(Connection c, Iterable<String> events) throws SQLException {
        Set<Integer> stripes = new TreeSet<>();
        events.forEach(event -> stripes.add(stripeOf(event)));
        try (PreparedStatement statement =
                c.prepareStatement("SELECT stripe FROM " + lockTable + " WHERE stripe = ? FOR UPDATE")) {
            for (int stripe : stripes) {
                statement.setInt(1, stripe);
                try (ResultSet row = statement.executeQuery()) {
                    if (!row.next()) {
                        throw new SQLException("Table " + lockTable + " lacks stripe " + stripe
                                + "; its rows come from Errand's migration 6 and must not be deleted");
                    }
                }
            }
        }
    }

    /**
     * Locks, in id order, the waiting tasks that have {@code event} as a condition.
     *
     * @return their queues, one entry per task
     */
    public List<String> lockWaiting(Connection c, String event) throws SQLException {
        List<String> queues = new ArrayList<>();
        try (PreparedStatement statement = c.prepareStatement("SELECT id, queue FROM " + taskTable + " WHERE state = "
                + States.WAITING + " AND id IN (SELECT task_id FROM " + conditionTable + " WHERE event = ?)"
                + " ORDER BY id FOR UPDATE")) {
            statement.setString(1, event);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    queues.add(rows.getString(2));
                }
            }
        }
        return queues;
    }

    /**
     * Makes pending every waiting task for which {@code event} is the only open condition. Run it before
     * {@link #deleteConditions}, under the locks of {@link #lockWaiting}.
     *
     * @return how many tasks it released
     */
    public int releaseFulfilled(Connection c, String event) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement("UPDATE " + taskTable + " SET state = "
                + States.PENDING + " WHERE state = " + States.WAITING + " AND id IN (SELECT task_id FROM "
                + conditionTable + " WHERE event = ?) AND NOT EXISTS (SELECT 1 FROM " + conditionTable
                + " other WHERE other.task_id = " + taskTable + ".id AND other.event <> ?)")) {
            statement.setString(1, event);
            statement.setString(2, event);
            return statement.executeUpdate();
        }
    }

    /** Deletes every condition on {@code event}: they are fulfilled. */
    public int deleteConditions(Connection c, String event) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement("DELETE FROM " + conditionTable + " WHERE event = ?")) {
            statement.setString(1, event);
            return statement.executeUpdate();
        }
    }

    /** Deletes the conditions of one task, once it is no longer waiting. */
    public void forgetConditions(Connection c, long taskId) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement("DELETE FROM " + conditionTable + " WHERE task_id = ?")) {
            statement.setLong(1, taskId);
            statement.executeUpdate();
        }
    }

    /** Stores {@code event} as premature, or counts one more trigger of it if it is stored already. */
    public void storePremature(Connection c, String event) throws SQLException {
        long offsetMicros = offsetMicros();
        try (PreparedStatement update = c.prepareStatement(
                "UPDATE " + prematureTable + " SET times = times + 1, last_at = " + now + " WHERE event = ?")) {
            update.setLong(1, offsetMicros);
            update.setString(2, event);
            if (update.executeUpdate() == 1) {
                return;
            }
        }
        // The stripe lock is held, so nobody inserts the same event meanwhile.
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO " + prematureTable
                + " (event, triggered_at, last_at, times) VALUES (?, " + now + ", " + now + ", 1)")) {
            insert.setString(1, event);
            insert.setLong(2, offsetMicros);
            insert.setLong(3, offsetMicros);
            insert.executeUpdate();
        }
    }

    /**
     * Consumes a stored premature event, under its stripe's lock.
     *
     * @return whether one was stored
     */
    public boolean consumePremature(Connection c, String event) throws SQLException {
        return deletePremature(c, event);
    }

    /** Inserts the conditions of a new waiting task. */
    public void insertConditions(Connection c, long taskId, List<TaskGate.NewCondition> conditions)
            throws SQLException {
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO " + conditionTable
                + " (task_id, event, expires_at) VALUES (?, ?, COALESCE(" + dialect.timestampParam() + ", " + now
                + "))")) {
            for (TaskGate.NewCondition condition : conditions) {
                insert.setLong(1, taskId);
                insert.setString(2, condition.event());
                insert.setObject(3, dialect.timestampValue(condition.expiresAt()));
                if (condition.expiresInMicros() == null) {
                    insert.setNull(4, Types.BIGINT);
                } else {
                    insert.setLong(4, condition.expiresInMicros());
                }
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    /** Makes one waiting task pending: premature events fulfilled all its conditions at enqueue. */
    public boolean releaseOne(Connection c, long taskId) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement("UPDATE " + taskTable + " SET state = " + States.PENDING
                + " WHERE id = ? AND state = " + States.WAITING)) {
            statement.setLong(1, taskId);
            return statement.executeUpdate() == 1;
        }
    }

    /**
     * Per event, its open conditions and the lowest task id among them, most first; then the creation time of
     * each of those tasks, in one more read by id.
     */
    public List<EventWaiters> waitingCounts(Connection c, int limit) throws SQLException {
        record Group(String event, long count, long oldest) {}
        List<Group> groups = new ArrayList<>();
        try (PreparedStatement statement =
                c.prepareStatement("SELECT event, COUNT(*) AS waiting, MIN(task_id) AS oldest" + " FROM "
                        + conditionTable + " GROUP BY event ORDER BY waiting DESC, event LIMIT ?")) {
            statement.setInt(1, limit);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    groups.add(new Group(rows.getString(1), rows.getLong(2), rows.getLong(3)));
                }
            }
        }
        if (groups.isEmpty()) {
            return List.of();
        }
        long[] ids = groups.stream().mapToLong(Group::oldest).distinct().toArray();
        Map<Long, Instant> created = new HashMap<>();
        try (PreparedStatement statement = c.prepareStatement(
                "SELECT id, created_at FROM " + taskTable + " WHERE " + dialect.idIn("id", ids.length))) {
            dialect.bindIds(statement, 1, ids);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    created.put(rows.getLong(1), dialect.readInstant(rows, "created_at"));
                }
            }
        }
        List<EventWaiters> counts = new ArrayList<>(groups.size());
        for (Group group : groups) {
            counts.add(new EventWaiters(group.event(), group.count(), group.oldest(), created.get(group.oldest())));
        }
        return counts;
    }

    /** Waiting tasks with their open conditions, oldest first; only those waiting for {@code event} if given. */
    public List<WaitingTask> waiting(Connection c, String event, int limit) throws SQLException {
        String forEvent =
                event == null ? "" : " AND id IN (SELECT task_id FROM " + conditionTable + " WHERE event = ?)";
        Map<Long, WaitingTask> tasks = new LinkedHashMap<>();
        try (PreparedStatement statement = c.prepareStatement("SELECT id, kind, queue, created_at, expires_at FROM "
                + taskTable + " WHERE state = " + States.WAITING + forEvent + " ORDER BY id LIMIT ?")) {
            int i = 1;
            if (event != null) {
                statement.setString(i++, event);
            }
            statement.setInt(i, limit);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    long id = rows.getLong("id");
                    tasks.put(
                            id,
                            new WaitingTask(
                                    id,
                                    rows.getString("kind"),
                                    rows.getString("queue"),
                                    dialect.readInstant(rows, "created_at"),
                                    dialect.readInstant(rows, "expires_at"),
                                    List.of()));
                }
            }
        }
        if (tasks.isEmpty()) {
            return List.of();
        }
        Map<Long, List<WaitingTask.OpenCondition>> open = new LinkedHashMap<>();
        long[] ids = tasks.keySet().stream().mapToLong(Long::longValue).toArray();
        try (PreparedStatement statement = c.prepareStatement("SELECT task_id, event, expires_at FROM " + conditionTable
                + " WHERE " + dialect.idIn("task_id", ids.length) + " ORDER BY task_id, event")) {
            dialect.bindIds(statement, 1, ids);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    open.computeIfAbsent(rows.getLong(1), id -> new ArrayList<>())
                            .add(new WaitingTask.OpenCondition(
                                    rows.getString(2), dialect.readInstant(rows, "expires_at")));
                }
            }
        }
        List<WaitingTask> result = new ArrayList<>(tasks.size());
        for (WaitingTask task : tasks.values()) {
            result.add(new WaitingTask(
                    task.id(),
                    task.kind(),
                    task.queue(),
                    task.createdAt(),
                    task.expiresAt(),
                    open.getOrDefault(task.id(), List.of())));
        }
        return result;
    }

    /** Stored premature events, oldest first. */
    public List<PrematureEvent> premature(Connection c, int limit) throws SQLException {
        List<PrematureEvent> events = new ArrayList<>();
        try (PreparedStatement statement = c.prepareStatement("SELECT event, triggered_at, last_at, times FROM "
                + prematureTable + " ORDER BY triggered_at, event LIMIT ?")) {
            statement.setInt(1, limit);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    events.add(new PrematureEvent(
                            rows.getString("event"),
                            dialect.readInstant(rows, "triggered_at"),
                            dialect.readInstant(rows, "last_at"),
                            rows.getInt("times")));
                }
            }
        }
        return events;
    }

    /** Deletes one premature event; returns whether it was stored. */
    public boolean deletePremature(Connection c, String event) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement("DELETE FROM " + prematureTable + " WHERE event = ?")) {
            statement.setString(1, event);
            return statement.executeUpdate() == 1;
        }
    }

    /** Deletes the premature events last triggered more than {@code ageMicros} ago. */
    public int deletePrematureOlderThan(Connection c, long ageMicros) throws SQLException {
        long offsetMicros = offsetMicros();
        try (PreparedStatement statement =
                c.prepareStatement("DELETE FROM " + prematureTable + " WHERE last_at < " + now)) {
            statement.setLong(1, Micros.plus(offsetMicros, -ageMicros));
            return statement.executeUpdate();
        }
    }

    /** The clock's offset in microseconds, read for each statement that means "now". */
    private long offsetMicros() {
        return Micros.of(clock.offset());
    }
}
