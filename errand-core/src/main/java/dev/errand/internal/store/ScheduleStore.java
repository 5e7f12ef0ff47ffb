package dev.errand.internal.store;

import dev.errand.schedule.MisfirePolicy;
import dev.errand.schedule.Schedule;
import dev.errand.schedule.ScheduleInfo;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The SQL of recurring schedules: one row per schedule, locked by the node that fires its due slot, so that
 * the slot's task and the move of {@code next_run_at} commit together and each slot fires once.
 */
public final class ScheduleStore {

    private static final String COLUMNS = "name, kind, queue, payload, cron, interval_ms, time_zone, misfire,"
            + " misfire_limit, paused, next_run_at, last_run_at";

    private final Dialect dialect;
    private final String table;

    /**
     * Creates the statements.
     *
     * @param dialect the database's dialect
     * @param table the schedule table's name
     */
    public ScheduleStore(Dialect dialect, String table) {
        this.dialect = dialect;
        this.table = table;
    }

    /** A schedule as stored: its definition, its JSON payload and its position. */
    public record Stored(Schedule timing, String payloadJson, boolean paused, Instant nextRunAt, Instant lastRunAt) {

        /** What the admin API shows of it. */
        public ScheduleInfo info() {
            return new ScheduleInfo(
                    timing.name(),
                    timing.kind(),
                    timing.queue(),
                    timing.timing(),
                    timing.zone().getId(),
                    timing.misfire(),
                    paused,
                    nextRunAt,
                    lastRunAt);
        }
    }

    /** The database's time now, plus the clock's offset. */
    public Instant now(Connection c, long offsetMicros) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement("SELECT " + dialect.timePlusMicros() + " AS now_at")) {
            statement.setLong(1, offsetMicros);
            try (ResultSet row = statement.executeQuery()) {
                row.next();
                return dialect.readInstant(row, "now_at");
            }
        }
    }

    /**
     * Adds a schedule or changes the one of the same name. A new timing starts from the first slot after
     * {@code now}; otherwise the next slot stays. Whether it is paused stays as it is.
     *
     * <p>Several nodes may declare the same schedule at the same moment (a cluster starting at once): the
     * insert comes first and does nothing on a taken name, so a concurrent insert never fails the caller's
     * transaction, and the row it finds is then locked and changed. Looking the row up first would let two
     * transactions both see none and race to insert it.
     */
    public void upsert(Connection c, Schedule schedule, String payloadJson, Instant now) throws SQLException {
        if (insertIfAbsent(c, schedule, payloadJson, now)) {
            return;
        }
        Optional<Stored> current = find(c, schedule.name(), true);
        if (current.isEmpty()) {
            // Removed between the refused insert and the look-up: add it again.
            if (insertIfAbsent(c, schedule, payloadJson, now)) {
                return;
            }
            current = find(c, schedule.name(), true);
            if (current.isEmpty()) {
                throw new SQLException("Schedule '" + schedule.name() + "' was neither inserted nor found; it is"
                        + " being added and removed at the same time by other nodes");
            }
        }
        Stored before = current.get();
        boolean sameTiming = before.timing().timing().equals(schedule.timing())
                && before.timing().zone().equals(schedule.zone());
        Instant next = sameTiming ? before.nextRunAt() : schedule.nextSlotAfter(now);
        try (PreparedStatement update = c.prepareStatement("UPDATE " + table + " SET name = ?, kind = ?, queue = ?,"
                + " payload = " + dialect.jsonParam() + ", cron = ?, interval_ms = ?, time_zone = ?, misfire = ?,"
                + " misfire_limit = ?, next_run_at = " + dialect.timestampParam() + " WHERE name = ?")) {
            int i = bindDefinition(update, 1, schedule, payloadJson);
            update.setObject(i++, dialect.timestampValue(next));
            update.setString(i, schedule.name());
            update.executeUpdate();
        }
    }

    /**
     * Inserts the schedule unless a row of that name exists, without an error that would end the
     * transaction: {@code ON CONFLICT DO NOTHING} on PostgreSQL (where any failed statement aborts the
     * transaction), {@code INSERT IGNORE} on MariaDB, and on H2 a caught duplicate-key error, which H2 rolls
     * back to the statement alone.
     *
     * @return whether this call inserted it
     */
    private boolean insertIfAbsent(Connection c, Schedule schedule, String payloadJson, Instant now)
            throws SQLException {
        String values = " (" + COLUMNS + ") VALUES (?, ?, ?, " + dialect.jsonParam() + ", ?, ?, ?, ?, ?, FALSE, "
                + dialect.timestampParam() + ", NULL)";
        String sql;
        if (dialect instanceof PostgresDialect) {
            sql = "INSERT INTO " + table + values + " ON CONFLICT (name) DO NOTHING";
        } else if (dialect instanceof MariaDbDialect) {
            sql = "INSERT IGNORE INTO " + table + values;
        } else {
            sql = "INSERT INTO " + table + values;
        }
        try (PreparedStatement insert = c.prepareStatement(sql)) {
            int i = bindDefinition(insert, 1, schedule, payloadJson);
            insert.setObject(i, dialect.timestampValue(schedule.nextSlotAfter(now)));
            return insert.executeUpdate() == 1;
        } catch (SQLException e) {
            if (dialect.isUniqueViolation(e)) {
                return false;
            }
            throw e;
        }
    }

    private int bindDefinition(PreparedStatement statement, int index, Schedule schedule, String payloadJson)
            throws SQLException {
        int i = index;
        statement.setString(i++, schedule.name());
        statement.setString(i++, schedule.kind());
        statement.setString(i++, schedule.queue());
        statement.setString(i++, payloadJson);
        statement.setString(i++, schedule.cronExpression().orElse(null));
        if (schedule.interval().isPresent()) {
            statement.setLong(i++, schedule.interval().get().toMillis());
        } else {
            statement.setNull(i++, Types.BIGINT);
        }
        statement.setString(i++, schedule.zone().getId());
        statement.setString(i++, schedule.misfire().name().toLowerCase(Locale.ROOT));
        statement.setInt(i++, schedule.misfireLimit());
        return i;
    }

    /** One schedule by name, locked for update if asked. */
    public Optional<Stored> find(Connection c, String name, boolean lock) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement(
                "SELECT " + COLUMNS + " FROM " + table + " WHERE name = ?" + (lock ? " FOR UPDATE" : ""))) {
            statement.setString(1, name);
            try (ResultSet row = statement.executeQuery()) {
                return row.next() ? Optional.of(read(row)) : Optional.empty();
            }
        }
    }

    /** Every schedule, by name. */
    public List<Stored> list(Connection c) throws SQLException {
        List<Stored> all = new ArrayList<>();
        try (PreparedStatement statement =
                        c.prepareStatement("SELECT " + COLUMNS + " FROM " + table + " ORDER BY name");
                ResultSet row = statement.executeQuery()) {
            while (row.next()) {
                all.add(read(row));
            }
        }
        return all;
    }

    /**
     * The schedules whose next slot is due at {@code now}, locked; schedules another node is firing are
     * skipped.
     */
    public List<Stored> lockDue(Connection c, Instant now, int limit) throws SQLException {
        List<Stored> due = new ArrayList<>();
        try (PreparedStatement statement = c.prepareStatement("SELECT " + COLUMNS + " FROM " + table
                + " WHERE paused = FALSE AND next_run_at <= " + dialect.timestampParam()
                + " ORDER BY next_run_at LIMIT ? FOR UPDATE SKIP LOCKED")) {
            statement.setObject(1, dialect.timestampValue(now));
            statement.setInt(2, limit);
            try (ResultSet row = statement.executeQuery()) {
                while (row.next()) {
                    due.add(read(row));
                }
            }
        }
        return due;
    }

    /**
     * Where a schedule goes after it fired.
     *
     * @param name the schedule
     * @param nextRunAt its next slot
     * @param lastRunAt the last slot it fired, or null if it never fired
     */
    public record Advance(String name, Instant nextRunAt, Instant lastRunAt) {}

    /**
     * Moves schedules on after they fired, as one JDBC batch: one round trip for all of them where the
     * driver sends a batch at once (PostgreSQL, MariaDB), instead of one per schedule.
     */
    public void advanceAll(Connection c, List<Advance> advances) throws SQLException {
        if (advances.isEmpty()) {
            return;
        }
        try (PreparedStatement statement = c.prepareStatement("UPDATE " + table + " SET next_run_at = "
                + dialect.timestampParam() + ", last_run_at = " + dialect.timestampParam() + " WHERE name = ?")) {
            for (Advance advance : advances) {
                statement.setObject(1, dialect.timestampValue(advance.nextRunAt()));
                statement.setObject(2, dialect.timestampValue(advance.lastRunAt()));
                statement.setString(3, advance.name());
                statement.addBatch();
            }
            statement.executeBatch();
        }
    }

    /** Pauses or resumes a schedule; a resume starts from the first slot after {@code now}. */
    public boolean setPaused(Connection c, String name, boolean paused, Instant now) throws SQLException {
        Optional<Stored> current = find(c, name, true);
        if (current.isEmpty()) {
            return false;
        }
        try (PreparedStatement statement = c.prepareStatement(
                "UPDATE " + table + " SET paused = ?, next_run_at = " + dialect.timestampParam() + " WHERE name = ?")) {
            statement.setBoolean(1, paused);
            Instant next = paused ? current.get().nextRunAt() : resumeAt(current.get(), now);
            statement.setObject(2, dialect.timestampValue(next));
            statement.setString(3, name);
            return statement.executeUpdate() == 1;
        }
    }

    private static Instant resumeAt(Stored stored, Instant now) {
        // Slots missed while paused follow the misfire policy: keep the old next slot unless it is SKIP.
        return stored.timing().misfire() == MisfirePolicy.SKIP
                        || !stored.nextRunAt().isBefore(now)
                ? stored.timing().nextSlotAfter(now)
                : stored.nextRunAt();
    }

    /** Removes a schedule. */
    public boolean remove(Connection c, String name) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement("DELETE FROM " + table + " WHERE name = ?")) {
            statement.setString(1, name);
            return statement.executeUpdate() == 1;
        }
    }

    private Stored read(ResultSet row) throws SQLException {
        String name = row.getString("name");
        String kind = row.getString("kind");
        String cron = row.getString("cron");
        long intervalMs = row.getLong("interval_ms");
        Schedule.Builder builder = cron != null
                ? Schedule.cron(name, kind, cron)
                : Schedule.every(name, kind, Duration.ofMillis(intervalMs));
        builder.queue(row.getString("queue")).zone(row.getString("time_zone"));
        MisfirePolicy misfire = MisfirePolicy.valueOf(
                Objects.requireNonNull(row.getString("misfire")).toUpperCase(Locale.ROOT));
        if (misfire == MisfirePolicy.RUN_ALL) {
            builder.runAllMissed(row.getInt("misfire_limit"));
        } else {
            builder.misfire(misfire);
        }
        return new Stored(
                builder.build(),
                row.getString("payload"),
                row.getBoolean("paused"),
                dialect.readInstant(row, "next_run_at"),
                dialect.readInstant(row, "last_run_at"));
    }
}
