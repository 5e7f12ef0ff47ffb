package dev.errand.internal.schedule;

import dev.errand.config.Names;
import dev.errand.internal.outcome.ErrorMessages;
import dev.errand.internal.store.Dialect;
import dev.errand.internal.store.Micros;
import dev.errand.schedule.MisfirePolicy;
import dev.errand.schedule.Schedule;
import dev.errand.schedule.ScheduleInfo;
import dev.errand.spi.DatabaseClock;
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

    /** The columns read back: the written ones and the reason Errand paused the schedule for. */
    private static final String READ_COLUMNS = COLUMNS + ", pause_reason";

    /** The {@code pause_reason} column's size. */
    public static final int MAX_REASON_LENGTH = 1_000;

    /** The most of a read failure's message kept as the problem of a row. */
    private static final int MAX_PROBLEM_LENGTH = 500;

    private final Dialect dialect;
    private final DatabaseClock clock;
    private final String table;

    /**
     * Creates the statements.
     *
     * @param dialect the database's dialect
     * @param table the schedule table's name
     * @param clock the node's clock, whose offset each statement that means "now" reads
     */
    public ScheduleStore(Dialect dialect, String table, DatabaseClock clock) {
        this.clock = clock;
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

    /**
     * A schedule's definition as its row holds it, as text, and what this node finds wrong with it. A row
     * that an operator changed with SQL can hold what the {@link Schedule} builder refuses; it is shown as it
     * is, so that it can still be listed, fixed and removed.
     *
     * @param name the {@code name} column
     * @param kind the {@code kind} column
     * @param queue the {@code queue} column
     * @param timing the {@code cron} column, or {@code every} and the interval, or {@code none}
     * @param zone the {@code time_zone} column
     * @param misfire the {@code misfire} column
     * @param problem why this node cannot read the row into a {@link Schedule}, or null if it can
     */
    public record Columns(
            String name, String kind, String queue, String timing, String zone, String misfire, String problem) {}

    /**
     * Whether a schedule is paused, and why Errand paused it.
     *
     * @param paused whether it fires nothing
     * @param reason why Errand paused it (a row it could not read or fire), or null: not paused, or paused by
     *     an operator
     */
    public record Pause(boolean paused, String reason) {}

    /**
     * A schedule as stored.
     *
     * @param columns the definition as the row holds it
     * @param timing the definition read into a schedule, or null if this node cannot read it (see
     *     {@link Columns#problem()})
     * @param payloadJson the payload of its tasks
     * @param pause whether it is paused and why
     * @param position where it stands
     */
    public record Stored(Columns columns, Schedule timing, String payloadJson, Pause pause, Position position) {

        /** The schedule's name. */
        public String name() {
            return columns.name();
        }

        /** Whether this node can read the row into a {@link Schedule}. */
        public boolean readable() {
            return timing != null;
        }

        /** Whether it fires nothing until resumed. */
        public boolean paused() {
            return pause.paused();
        }

        /** What the admin API shows of it at {@code now}. */
        public ScheduleInfo info(Instant now) {
            // A reason left on a row that SQL resumed is stale: only a paused row shows it.
            String problem = pause.paused() && pause.reason() != null ? pause.reason() : columns.problem();
            if (timing == null) {
                return new ScheduleInfo(
                        columns.name(),
                        columns.kind(),
                        columns.queue(),
                        columns.timing(),
                        columns.zone(),
                        misfireOrNull(columns.misfire()),
                        pause.paused(),
                        position.nextRun(now),
                        position.previousRun(now),
                        problem);
            }
            return new ScheduleInfo(
                    timing.name(),
                    timing.kind(),
                    timing.queue(),
                    timing.timing(),
                    timing.zone().getId(),
                    timing.misfire(),
                    pause.paused(),
                    position.nextRun(now),
                    position.previousRun(now),
                    problem);
        }
    }

    /** The database's time now, plus the clock's offset. */
    public Instant now(Connection c) throws SQLException {
        long offsetMicros = offsetMicros();
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
        String sql = dialect.insertSkippingDuplicates(table + values, "(name)");
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

    /**
     * Writes a schedule's definition and position over the row of its name.
     *
     * @param unpause whether to end a pause that Errand made (and its reason) too; an operator's pause stays
     */
    public void update(Connection c, Schedule schedule, String payloadJson, Position position, boolean unpause)
            throws SQLException {
        try (PreparedStatement update = c.prepareStatement("UPDATE " + table + " SET name = ?, kind = ?, queue = ?,"
                + " payload = " + dialect.jsonParam() + ", cron = ?, interval_ms = ?, time_zone = ?, misfire = ?,"
                + " misfire_limit = ?, " + (unpause ? "paused = FALSE, pause_reason = NULL, " : "")
                + positionAssignments() + " WHERE name = ?")) {
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

    /**
     * One schedule by its exact name, locked for update if asked. MariaDB's comparison ignores trailing spaces,
     * so the row found is kept only if its name is the one asked for.
     */
    public Optional<Stored> find(Connection c, String name, boolean lock) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement(
                "SELECT " + READ_COLUMNS + " FROM " + table + " WHERE name = ?" + (lock ? " FOR UPDATE" : ""))) {
            statement.setString(1, name);
            try (ResultSet row = statement.executeQuery()) {
                while (row.next()) {
                    Stored stored = read(row);
                    if (stored.name().equals(name)) {
                        return Optional.of(stored);
                    }
                }
                return Optional.empty();
            }
        }
    }

    /** Every schedule, by name. */
    public List<Stored> list(Connection c) throws SQLException {
        List<Stored> all = new ArrayList<>();
        try (PreparedStatement statement =
                        c.prepareStatement("SELECT " + READ_COLUMNS + " FROM " + table + " ORDER BY name");
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
        try (PreparedStatement statement = c.prepareStatement("SELECT " + READ_COLUMNS + " FROM " + table
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

    /**
     * Pauses or resumes a schedule at {@code position}; returns false if there is none of that name. A pause
     * keeps the reason Errand paused it for, if any; a resume clears it.
     */
    public boolean setPaused(Connection c, String name, boolean paused, Position position) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement("UPDATE " + table + " SET paused = ?, "
                + (paused ? "" : "pause_reason = NULL, ") + positionAssignments() + " WHERE name = ?")) {
            statement.setBoolean(1, paused);
            int i = bindPosition(statement, 2, position);
            statement.setString(i, name);
            return statement.executeUpdate() == 1;
        }
    }

    /**
     * Pauses a schedule that cannot fire, with the reason, cut to the column's size; its position stays.
     * Returns false if there is none of that name.
     */
    public boolean pauseFor(Connection c, String name, String reason) throws SQLException {
        try (PreparedStatement statement =
                c.prepareStatement("UPDATE " + table + " SET paused = TRUE, pause_reason = ? WHERE name = ?")) {
            statement.setString(1, cut(reason, MAX_REASON_LENGTH));
            statement.setString(2, name);
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

    /**
     * Reads a row. A definition that the {@link Schedule} builder refuses does not fail the read: the row
     * comes back unreadable, with the reason, so that one bad row cannot stop the listing or the firing of
     * the others.
     */
    private Stored read(ResultSet row) throws SQLException {
        String name = row.getString("name");
        String kind = row.getString("kind");
        String queue = row.getString("queue");
        String cron = row.getString("cron");
        long intervalMs = row.getLong("interval_ms");
        Long interval = row.wasNull() ? null : intervalMs;
        String zone = row.getString("time_zone");
        String misfire = row.getString("misfire");
        int misfireLimit = row.getInt("misfire_limit");
        Schedule timing = null;
        String problem = null;
        try {
            timing = definition(name, kind, cron, interval, misfire, misfireLimit)
                    .queue(queue)
                    .zone(zone)
                    .build();
        } catch (RuntimeException unreadable) {
            // Whatever the builder or the cron parser refuses is this row's problem alone.
            String message = ErrorMessages.of(unreadable);
            problem = cut(
                    unreadable instanceof IllegalArgumentException && message != null
                            ? message
                            : "Schedule " + Names.echo(name) + " cannot be read: " + ErrorMessages.summary(unreadable),
                    MAX_PROBLEM_LENGTH);
        }
        String timingText = cron != null ? cron : interval != null ? "every " + Duration.ofMillis(interval) : "none";
        return new Stored(
                new Columns(name, kind, queue, timingText, zone, misfire, problem),
                timing,
                row.getString("payload"),
                new Pause(row.getBoolean("paused"), row.getString("pause_reason")),
                new Position(
                        dialect.readInstant(row, "next_run_at"),
                        dialect.readInstant(row, "fire_at"),
                        dialect.readInstant(row, "last_run_at"),
                        dialect.readInstant(row, "prior_run_at")));
    }

    private static Schedule.Builder definition(
            String name, String kind, String cron, Long interval, String misfire, int misfireLimit) {
        if (cron != null && interval != null) {
            throw new IllegalArgumentException("Schedule " + Names.echo(name) + ": the row has both a cron"
                    + " expression and interval_ms; set one of them to NULL");
        }
        if (cron == null && interval == null) {
            throw new IllegalArgumentException("Schedule " + Names.echo(name) + ": the row has neither a cron"
                    + " expression nor interval_ms; set one");
        }
        Schedule.Builder builder = cron != null
                ? Schedule.cron(name, kind, cron)
                : Schedule.every(name, kind, Duration.ofMillis(interval));
        MisfirePolicy policy = misfirePolicy(name, misfire);
        if (policy == MisfirePolicy.RUN_ALL) {
            return builder.runAllMissed(misfireLimit);
        }
        return builder.misfire(policy);
    }

    private static MisfirePolicy misfirePolicy(String name, String misfire) {
        MisfirePolicy policy = misfireOrNull(misfire);
        if (policy == null) {
            throw new IllegalArgumentException("Schedule " + Names.echo(name) + ": misfire " + Names.echo(misfire)
                    + " is none of 'skip', 'run_once' and 'run_all'");
        }
        return policy;
    }

    /** The misfire policy a column holds, or null if it holds none. */
    static MisfirePolicy misfireOrNull(String misfire) {
        if (misfire == null) {
            return null;
        }
        for (MisfirePolicy policy : MisfirePolicy.values()) {
            if (policy.name().toLowerCase(Locale.ROOT).equals(misfire.toLowerCase(Locale.ROOT))) {
                return policy;
            }
        }
        return null;
    }

    private static String cut(String text, int length) {
        return text == null || text.length() <= length ? text : text.substring(0, length - 3) + "...";
    }

    /** The clock's offset in microseconds, read for each statement that means "now". */
    private long offsetMicros() {
        return Micros.of(clock.offset());
    }
}
