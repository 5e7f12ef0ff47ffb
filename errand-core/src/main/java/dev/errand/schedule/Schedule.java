package dev.errand.schedule;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import dev.errand.config.ErrandSettings;
import dev.errand.config.Names;
import dev.errand.task.TaskKind;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Optional;

/**
 * A recurring task: every slot of a cron expression or of a fixed interval enqueues one task of
 * {@link #kind()} with {@link #payload()}, exactly once across the cluster.
 *
 * <pre>{@code
 * Schedule.cron("nightly-report", "build-report", "0 2 * * *").zone("Europe/Berlin").build();
 * Schedule.every("sync-partners", "sync", Duration.ofMinutes(5)).payload(new Sync("all")).build();
 * }</pre>
 *
 * <p>A cron expression has 5 fields (minute, hour, day of month, month, day of week) or 6 with the
 * seconds first. It is read in wall-clock time in the schedule's time zone (UTC unless set), and each
 * local slot fires once: a slot that a spring-forward change skips fires at the first instant after the
 * gap (02:30 becomes 03:30), and one that a fall-back change repeats fires at its first occurrence. So a
 * daily schedule fires once on both days, and an hourly one fires 23 times on the spring-forward day and
 * 24 times on the fall-back day; use an interval schedule for slots equally spaced in time. An interval's slots are the multiples of the interval since
 * the epoch, so every node computes the same ones. Immutable and thread-safe.
 */
public final class Schedule {

    /** The longest schedule name: the slot's unique key holds it. */
    public static final int MAX_NAME_LENGTH = 100;

    /** The most missed slots {@link MisfirePolicy#RUN_ALL} fires at once. */
    public static final int MAX_MISFIRE_LIMIT = 1_000;

    /** The longest cron expression: the schedule table's {@code cron} column holds 200 characters. */
    public static final int MAX_CRON_LENGTH = 200;

    /** The longest time-zone id: the schedule table's {@code time_zone} column holds 100 characters. */
    public static final int MAX_ZONE_LENGTH = 100;

    /** The shortest interval. */
    public static final Duration MIN_INTERVAL = Duration.ofSeconds(1);

    /** The longest interval. */
    public static final Duration MAX_INTERVAL = Duration.ofDays(366);

    /** The earliest instant slots are computed around: the first moment of the year 1, UTC. */
    public static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");

    /** The latest instant slots are computed around: the last moment of the year 9999, UTC. */
    public static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999999999Z");

    private static final CronParser UNIX = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));
    private static final CronParser WITH_SECONDS =
            new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.SPRING53));

    private final String name;
    private final String kind;
    private final String queue;
    private final Object payload;
    private final String cronExpression;
    private final ExecutionTime cron;
    private final Duration interval;
    private final ZoneId zone;
    private final MisfirePolicy misfire;
    private final int misfireLimit;

    private Schedule(Builder builder) {
        this.name = builder.name;
        this.kind = builder.kind;
        this.queue = builder.queue;
        this.payload = builder.payload;
        this.cronExpression = builder.cronExpression;
        this.cron = builder.cronExpression == null ? null : executionTime(name, builder.cronExpression);
        this.interval = builder.interval;
        this.zone = builder.zone;
        this.misfire = builder.misfire;
        this.misfireLimit = builder.misfireLimit;
    }

    /**
     * Starts a schedule on a cron expression.
     *
     * @throws IllegalArgumentException if the name or kind is invalid, or the expression is blank, longer than
     *     {@value #MAX_CRON_LENGTH} characters, holds a control character or is not a valid cron expression;
     *     the message quotes it (cut to {@value dev.errand.config.Names#ECHO_LENGTH} characters) and says what
     *     is wrong
     */
    public static Builder cron(String name, String kind, String expression) {
        Builder builder = new Builder(name, kind);
        if (expression == null || expression.isBlank()) {
            throw new IllegalArgumentException("Schedule '" + name + "' needs a cron expression, for example"
                    + " \"*/5 * * * *\" (every five minutes); got " + Names.echo(expression));
        }
        String trimmed = expression.strip();
        if (trimmed.length() > MAX_CRON_LENGTH) {
            throw new IllegalArgumentException("Schedule '" + name + "': cron expression " + Names.echo(trimmed)
                    + " is longer than " + MAX_CRON_LENGTH + " characters, the most the schedule table holds;"
                    + " write it with ranges and steps (\"0-30/5\") instead of long lists");
        }
        for (int i = 0; i < trimmed.length(); i++) {
            if (Character.isISOControl(trimmed.charAt(i))) {
                throw new IllegalArgumentException("Schedule '" + name + "': cron expression " + Names.echo(trimmed)
                        + " contains a control character (U+" + String.format("%04X", (int) trimmed.charAt(i))
                        + " at position " + i + "); separate the fields with spaces");
            }
        }
        executionTime(name, trimmed);
        builder.cronExpression = trimmed;
        return builder;
    }

    /** Starts a schedule of a typed kind on a cron expression; see {@link #cron(String, String, String)}. */
    public static Builder cron(String name, TaskKind<?> kind, String expression) {
        return cron(name, requireKind(kind), expression);
    }

    /**
     * Starts a schedule on a fixed interval: its slots are the multiples of {@code interval} since the epoch.
     *
     * @throws IllegalArgumentException if the name or kind is invalid, or the interval is not a whole number
     *     of milliseconds from {@link #MIN_INTERVAL} (1 second) to {@link #MAX_INTERVAL} (366 days)
     */
    public static Builder every(String name, String kind, Duration interval) {
        Builder builder = new Builder(name, kind);
        if (interval == null || interval.compareTo(MIN_INTERVAL) < 0 || interval.compareTo(MAX_INTERVAL) > 0) {
            throw new IllegalArgumentException("Schedule '" + name + "': the interval must be between 1s and 366d,"
                    + " got " + interval + "; use a cron expression for calendar times");
        }
        if (interval.getNano() % 1_000_000 != 0) {
            // The table stores milliseconds: a finer interval would be read back as another one.
            throw new IllegalArgumentException("Schedule '" + name + "': the interval must be a whole number of"
                    + " milliseconds, got " + interval + "; round it, for example with"
                    + " Duration.ofMillis(interval.toMillis())");
        }
        builder.interval = interval;
        return builder;
    }

    /** Starts a schedule of a typed kind on a fixed interval; see {@link #every(String, String, Duration)}. */
    public static Builder every(String name, TaskKind<?> kind, Duration interval) {
        return every(name, requireKind(kind), interval);
    }

    private static String requireKind(TaskKind<?> kind) {
        if (kind == null) {
            throw new IllegalArgumentException("kind must not be null");
        }
        return kind.name();
    }

    private static ExecutionTime executionTime(String name, String expression) {
        return ParsedCrons.get(expression, text -> ExecutionTime.forCron(parse(name, text)));
    }

    private static Cron parse(String name, String expression) {
        int fields = expression.trim().split("\\s+").length;
        if (fields != 5 && fields != 6) {
            throw new IllegalArgumentException("Schedule '" + name + "': cron expression " + Names.echo(expression)
                    + " has " + fields + " fields; write 5 (minute hour day-of-month month day-of-week) or 6 with the"
                    + " seconds first, for example \"0 */5 * * *\" or \"0 0 */5 * * *\"");
        }
        try {
            return (fields == 5 ? UNIX : WITH_SECONDS).parse(expression.trim()).validate();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "Schedule '" + name + "': cron expression " + Names.echo(expression) + " is invalid: "
                            // The expression is at most 200 characters without control characters here, so the parser's
                            // message is short.
                            + e.getMessage(),
                    e);
        }
    }

    /** The schedule's unique name. */
    public String name() {
        return name;
    }

    /** The kind of the tasks it enqueues. */
    public String kind() {
        return kind;
    }

    /** The queue of those tasks. */
    public String queue() {
        return queue;
    }

    /** The payload of every task, or {@code null}. */
    public Object payload() {
        return payload;
    }

    /** The cron expression, or empty for an interval schedule. */
    public Optional<String> cronExpression() {
        return Optional.ofNullable(cronExpression);
    }

    /** The interval, or empty for a cron schedule. */
    public Optional<Duration> interval() {
        return Optional.ofNullable(interval);
    }

    /** The time zone a cron expression is read in. */
    public ZoneId zone() {
        return zone;
    }

    /** What happens to slots missed while no node could fire them. */
    public MisfirePolicy misfire() {
        return misfire;
    }

    /** For {@link MisfirePolicy#RUN_ALL}: the most missed slots fired at once. */
    public int misfireLimit() {
        return misfireLimit;
    }

    /** The timing as text: the cron expression, or {@code every <interval>}. */
    public String timing() {
        return cronExpression != null ? cronExpression : "every " + interval;
    }

    /**
     * The first slot strictly after {@code instant}.
     *
     * @throws IllegalArgumentException if {@code instant} is null or outside {@link #EARLIEST} to {@link #LATEST}
     * @throws IllegalStateException if a cron expression has no slot after it (such as a date that is past)
     */
    public Instant nextSlotAfter(Instant instant) {
        requireInRange(instant);
        if (interval != null) {
            long step = interval.toMillis();
            long at = Math.floorDiv(instant.toEpochMilli(), step) * step + step;
            return Instant.ofEpochMilli(at);
        }
        // The cron is read in wall-clock time: evaluate it on local date-times, then place each on the zone's
        // time line. A local slot in a gap (spring forward) fires at the first instant after the gap; one in an
        // overlap (fall back) fires at its first occurrence. So each local slot fires once.
        ZonedDateTime wall = LocalDateTime.ofInstant(instant, zone).atZone(ZoneOffset.UTC);
        for (int guard = 0; guard < 1_000; guard++) {
            Optional<ZonedDateTime> next = cron.nextExecution(wall);
            if (next.isEmpty()) {
                break;
            }
            wall = next.get();
            Instant slot =
                    ZonedDateTime.ofLocal(wall.toLocalDateTime(), zone, null).toInstant();
            if (slot.isAfter(instant)) {
                return slot;
            }
        }
        throw new IllegalStateException("Schedule '" + name + "': cron expression " + Names.echo(cronExpression)
                + " has no slot after " + instant);
    }

    /**
     * The last slot strictly before {@code instant}, or empty if there is none.
     *
     * @throws IllegalArgumentException if {@code instant} is null or outside {@link #EARLIEST} to {@link #LATEST}
     */
    public Optional<Instant> slotBefore(Instant instant) {
        requireInRange(instant);
        if (interval != null) {
            long step = interval.toMillis();
            long at = Math.floorDiv(instant.toEpochMilli() - 1, step) * step;
            return Optional.of(Instant.ofEpochMilli(at));
        }
        ZonedDateTime wall = LocalDateTime.ofInstant(instant, zone).atZone(ZoneOffset.UTC);
        for (int guard = 0; guard < 1_000; guard++) {
            Optional<ZonedDateTime> previous = cron.lastExecution(wall);
            if (previous.isEmpty()) {
                return Optional.empty();
            }
            wall = previous.get();
            Instant slot =
                    ZonedDateTime.ofLocal(wall.toLocalDateTime(), zone, null).toInstant();
            if (slot.isBefore(instant)) {
                return Optional.of(slot);
            }
        }
        return Optional.empty();
    }

    /** Keeps the slot arithmetic in range: epoch milliseconds and local date-times overflow near the extremes. */
    private void requireInRange(Instant instant) {
        if (instant == null || instant.isBefore(EARLIEST) || instant.isAfter(LATEST)) {
            throw new IllegalArgumentException("Schedule '" + name + "': slots are computed for instants from "
                    + EARLIEST + " to " + LATEST + ", got " + instant);
        }
    }

    @Override
    public String toString() {
        return "Schedule " + name + " (" + timing() + " in " + zone + ", kind " + kind + ", queue " + queue + ")";
    }

    /** Builds a {@link Schedule}; start with {@link Schedule#cron} or {@link Schedule#every}. */
    public static final class Builder {
        private final String name;
        private final String kind;
        private String queue = ErrandSettings.DEFAULT_QUEUE;
        private Object payload;
        private String cronExpression;
        private Duration interval;
        private ZoneId zone = ZoneOffset.UTC;
        private MisfirePolicy misfire = MisfirePolicy.SKIP;
        private int misfireLimit = 1;

        private Builder(String name, String kind) {
            this.name = Names.require("Schedule name", name, MAX_NAME_LENGTH);
            this.kind = TaskKind.requireValidName(kind);
        }

        /**
         * The payload of every task, or {@code null} (the default). It must fit the kind's payload type: an
         * instance of it, or a JSON tree or {@code Map} that reads into it. The node that stores the schedule
         * checks it, as an enqueue does, and refuses what every slot's task would fail on.
         */
        public Builder payload(Object payload) {
            this.payload = payload;
            return this;
        }

        /**
         * The queue of the tasks (default {@code default}). The node that declares or changes the schedule must
         * declare the queue, as for an enqueue; the firing node need not.
         *
         * @throws IllegalArgumentException if the name is not 1 to 100 plain characters
         */
        public Builder queue(String queue) {
            this.queue = Names.require("Queue name", queue, 100);
            return this;
        }

        /**
         * The time zone a cron expression is read in (default UTC): a region id such as {@code Europe/Berlin}
         * or an offset such as {@code +02:00}; surrounding whitespace is ignored.
         *
         * @throws IllegalArgumentException for a blank, unknown or too long zone
         *     (over {@value Schedule#MAX_ZONE_LENGTH} characters); the message quotes it
         */
        public Builder zone(String zone) {
            if (zone == null || zone.isBlank()) {
                throw new IllegalArgumentException("Schedule '" + name + "' needs a time zone such as \"UTC\" or"
                        + " \"Europe/Berlin\", got " + Names.echo(zone));
            }
            String id = zone.strip();
            if (id.length() > MAX_ZONE_LENGTH) {
                // Checked before ZoneId.of, whose own message would repeat the whole text.
                throw new IllegalArgumentException("Schedule '" + name + "': unknown time zone " + Names.echo(id)
                        + "; a zone id is at most " + MAX_ZONE_LENGTH + " characters, such as \"Europe/Berlin\"");
            }
            try {
                return zone(ZoneId.of(id));
            } catch (DateTimeException e) {
                throw new IllegalArgumentException(
                        "Schedule '" + name + "': unknown time zone " + Names.echo(zone)
                                + "; use a region id such as \"Europe/Berlin\" or an offset such as \"+02:00\"",
                        e);
            }
        }

        /**
         * The time zone a cron expression is read in (default UTC).
         *
         * @throws IllegalArgumentException for null, or a zone whose id is over {@value Schedule#MAX_ZONE_LENGTH}
         *     characters
         */
        public Builder zone(ZoneId zone) {
            if (zone == null) {
                throw new IllegalArgumentException("Schedule '" + name + "': zone must not be null");
            }
            if (zone.getId().length() > MAX_ZONE_LENGTH) {
                throw new IllegalArgumentException("Schedule '" + name + "': time zone " + Names.echo(zone.getId())
                        + " has an id longer than " + MAX_ZONE_LENGTH + " characters, the most the schedule table"
                        + " holds");
            }
            this.zone = zone;
            return this;
        }

        /** What happens to missed slots: {@link MisfirePolicy#SKIP} (the default) or {@link MisfirePolicy#RUN_ONCE}. */
        public Builder misfire(MisfirePolicy policy) {
            if (policy == null) {
                throw new IllegalArgumentException("Schedule '" + name + "': misfire policy must not be null");
            }
            this.misfire = policy;
            this.misfireLimit = policy == MisfirePolicy.RUN_ALL ? Math.max(misfireLimit, 1) : 1;
            return this;
        }

        /**
         * {@link MisfirePolicy#RUN_ALL}: each missed slot fires, up to {@code limit} of them (the latest).
         *
         * @throws IllegalArgumentException if the limit is not between 1 and {@value Schedule#MAX_MISFIRE_LIMIT}
         */
        public Builder runAllMissed(int limit) {
            if (limit < 1 || limit > MAX_MISFIRE_LIMIT) {
                throw new IllegalArgumentException("Schedule '" + name + "': the misfire limit must be between 1 and "
                        + MAX_MISFIRE_LIMIT + ", got " + limit);
            }
            this.misfire = MisfirePolicy.RUN_ALL;
            this.misfireLimit = limit;
            return this;
        }

        /**
         * Builds the schedule.
         *
         * @throws IllegalArgumentException if a cron expression has no slot at all, such as {@code 0 0 30 2 *}
         */
        public Schedule build() {
            Schedule schedule = new Schedule(this);
            if (cronExpression != null) {
                try {
                    // Only to find expressions that never fire; firing reads the database's clock.
                    schedule.nextSlotAfter(Instant.now());
                } catch (IllegalStateException never) {
                    throw new IllegalArgumentException(
                            "Schedule '" + name + "': cron expression " + Names.echo(cronExpression)
                                    + " never fires; check its day and month fields",
                            never);
                }
            }
            return schedule;
        }
    }
}
