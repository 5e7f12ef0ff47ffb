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
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The SQL of recurring schedules: one row per schedule, locked by the node that fires its next slot, so that
 * the slot's task and the move of the schedule's position commit together and each slot fires once. What
 * the position should be is decided by the callers ({@code internal.schedule}); this class only reads and
 * writes it.
 */
public final class ScheduleStore {

    private static final String COLUMNS = "name, kind, queue, payload, cron, interval_ms, time_zone, misfire,"
            + " misfire_limit, paused, next_run_at, fire_at, last_run_at, prior_run_at";

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

    /**
     * Where a schedule stands.
     *
     * @param nextRunAt the next slot whose task is not written yet
     * @param fireAt when that task is to be written: up to the lookahead before the slot
     * @param lastRunAt the last slot whose task was written, or null; it may still be to come
     * @param priorRunAt the slot written before {@code lastRunAt}, or null
     */
    public record Position(Instant nextRunAt, Instant fireAt, Instant lastRunAt, Instant priorRunAt) {

        /** Whether the task of {@code lastRunAt} was written ahead of its slot, which is still to come. */
        public boolean hasTaskAhead(Instant now) {
            return lastRunAt != null && lastRunAt.isAfter(now);
        }

        /** The next slot to run at {@code now}: the one written ahead, if any, else the next one. */
        public Instant nextRun(Instant now) {
            return hasTaskAhead(now) ? lastRunAt : nextRunAt;
        }

        /** The last slot that has come at {@code now}, or null. */
        public Instant previousRun(Instant now) {
            return hasTaskAhead(now) ? priorRunAt : lastRunAt;
        }
    }

    /** A schedule as stored: its definition, its JSON payload, whether it is paused and its position. */
    public record Stored(Schedule timing, String payloadJson, boolean paused, Position position) {

        /** What the admin API shows of it at {@code now}. */
        public ScheduleInfo info(Instant now) {
            return new ScheduleInfo(
                    timing.name(),
                    timing.kind(),
                    timing.queue(),
                    timing.timing(),
                    timing.zone().getId(),
                    timing.misfire(),
                    paused,
                    position.nextRun(now),
                    position.previousRun(now));
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
     * Inserts the schedule, not paused, unless a row of that name exists, without an error that would end
     * the transaction: {@code ON CONFLICT DO NOTHING} on PostgreSQL (where any failed statement aborts the
     * transaction), {@code INSERT IGNORE} on MariaDB, and on H2 a caught duplicate-key error, which H2 rolls
     * back to the statement alone. Several nodes may declare the same schedule at the same moment: looking
     * the row up first would let two transactions both see none and race to insert it.
     *
     * @return whether this call inserted it
     */
    public boolean insertIfAbsent(Connection c, Schedule schedule, String payloadJson, Position position)
            throws SQLException {
        String values = " (" + COLUMNS + ") VALUES (?, ?, ?, " + dialect.jsonParam() + ", ?, ?, ?, ?, ?, FALSE, "
                + timestamps(4) + ")";
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
            bindPosition(insert, i, position);
            return insert.executeUpdate() == 1;
        } catch (SQLException e) {
            if (dialect.isUniqueViolation(e)) {
                return false;
            }
            throw e;
        }
    }

    /** Writes a schedule's definition and position over the row of its name. */
    public void update(Connection c, Schedule schedule, String payloadJson, Position position) throws SQLException {
        try (PreparedStatement update = c.prepareStatement("UPDATE " + table + " SET name = ?, kind = ?, queue = ?,"
                + " payload = " + dialect.jsonParam() + ", cron = ?, interval_ms = ?, time_zone = ?, misfire = ?,"
                + " misfire_limit = ?, " + positionAssignments() + " WHERE name = ?")) {
            int i = bindDefinition(update, 1, schedule, payloadJson);
            i = bindPosition(update, i, position);
            update.setString(i, schedule.name());
            update.executeUpdate();
        }
    }

    private String timestamps(int count) {
        return String.join(", ", Collections.nCopies(count, dialect.timestampParam()));
    }

    private String positionAssignments() {
        String t = dialect.timestampParam();
        return "next_run_at = " + t + ", fire_at = " + t + ", last_run_at = " + t + ", prior_run_at = " + t;
    }

    private int bindPosition(PreparedStatement statement, int index, Position position) throws SQLException {
        int i = index;
        statement.setObject(i++, dialect.timestampValue(position.nextRunAt()));
        statement.setObject(i++, dialect.timestampValue(position.fireAt()));
        statement.setObject(i++, dialect.timestampValue(position.lastRunAt()));
        statement.setObject(i++, dialect.timestampValue(position.priorRunAt()));
        return i;
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
     * The schedules whose next slot's task is to be written at {@code now}, locked; schedules another node
     * is firing are skipped.
     */
    public List<Stored> lockDue(Connection c, Instant now, int limit) throws SQLException {
        List<Stored> due = new ArrayList<>();
        try (PreparedStatement statement = c.prepareStatement("SELECT " + COLUMNS + " FROM " + table
                + " WHERE paused = FALSE AND fire_at <= " + dialect.timestampParam()
                + " ORDER BY fire_at LIMIT ? FOR UPDATE SKIP LOCKED")) {
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
     * @param position its new position
     */
    public record Advance(String name, Position position) {}

    /**
     * Moves schedules on after they fired, as one JDBC batch: one round trip for all of them where the
     * driver sends a batch at once (PostgreSQL, MariaDB), instead of one per schedule.
     */
    public void advanceAll(Connection c, List<Advance> advances) throws SQLException {
        if (advances.isEmpty()) {
            return;
        }
        try (PreparedStatement statement =
                c.prepareStatement("UPDATE " + table + " SET " + positionAssignments() + " WHERE name = ?")) {
            for (Advance advance : advances) {
                int i = bindPosition(statement, 1, advance.position());
                statement.setString(i, advance.name());
                statement.addBatch();
            }
            statement.executeBatch();
        }
    }

    /** Pauses or resumes a schedule at {@code position}; returns false if there is none of that name. */
    public boolean setPaused(Connection c, String name, boolean paused, Position position) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement(
                "UPDATE " + table + " SET paused = ?, " + positionAssignments() + " WHERE name = ?")) {
            statement.setBoolean(1, paused);
            int i = bindPosition(statement, 2, position);
            statement.setString(i, name);
            return statement.executeUpdate() == 1;
        }
    }

    /** Removes a schedule; returns false if there is none of that name. */
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
                new Position(
                        dialect.readInstant(row, "next_run_at"),
                        dialect.readInstant(row, "fire_at"),
                        dialect.readInstant(row, "last_run_at"),
                        dialect.readInstant(row, "prior_run_at")));
    }
}
