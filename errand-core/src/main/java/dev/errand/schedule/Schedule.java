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
     * @throws IllegalArgumentException if the name or kind is invalid, or the expression is not a valid cron
     *     expression; the message quotes it and says what is wrong
     */
    public static Builder cron(String name, String kind, String expression) {
        Builder builder = new Builder(name, kind);
        if (expression == null || expression.isBlank()) {
            throw new IllegalArgumentException("Schedule '" + name + "' needs a cron expression, for example"
                    + " \"*/5 * * * *\" (every five minutes)");
        }
        executionTime(name, expression.trim());
        builder.cronExpression = expression.trim();
        return builder;
    }

    /** Starts a schedule of a typed kind on a cron expression; see {@link #cron(String, String, String)}. */
    public static Builder cron(String name, TaskKind<?> kind, String expression) {
        return cron(name, requireKind(kind), expression);
    }

    /**
     * Starts a schedule on a fixed interval: its slots are the multiples of {@code interval} since the epoch.
     *
     * @throws IllegalArgumentException if the name or kind is invalid, or the interval is not at least one
     *     second and at most 366 days
     */
    public static Builder every(String name, String kind, Duration interval) {
        Builder builder = new Builder(name, kind);
        if (interval == null
                || interval.compareTo(Duration.ofSeconds(1)) < 0
                || interval.compareTo(Duration.ofDays(366)) > 0) {
            throw new IllegalArgumentException("Schedule '" + name + "': the interval must be between 1s and 366d,"
                    + " got " + interval + "; use a cron expression for calendar times");
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
            throw new IllegalArgumentException("Schedule '" + name + "': cron expression \"" + expression + "\" has "
                    + fields + " fields; write 5 (minute hour day-of-month month day-of-week) or 6 with the seconds"
                    + " first, for example \"0 */5 * * *\" or \"0 0 */5 * * *\"");
        }
        try {
            return (fields == 5 ? UNIX : WITH_SECONDS).parse(expression.trim()).validate();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "Schedule '" + name + "': cron expression \"" + expression + "\" is invalid: " + e.getMessage(), e);
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
     * @throws IllegalStateException if a cron expression has no slot after it (such as a date that is past)
     */
    public Instant nextSlotAfter(Instant instant) {
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
        throw new IllegalStateException(
                "Schedule '" + name + "': cron expression \"" + cronExpression + "\" has no slot after " + instant);
    }

    /** The last slot strictly before {@code instant}, or empty if there is none. */
    public Optional<Instant> slotBefore(Instant instant) {
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

        /** The payload of every task (any object Jackson can write), or {@code null} (the default). */
        public Builder payload(Object payload) {
            this.payload = payload;
            return this;
        }

        /** The queue of the tasks (default {@code default}); the firing node need not declare it. */
        public Builder queue(String queue) {
            this.queue = Names.require("Queue name", queue, 100);
            return this;
        }

        /**
         * The time zone a cron expression is read in (default UTC).
         *
         * @throws IllegalArgumentException for an unknown zone; the message names it
         */
        public Builder zone(String zone) {
            if (zone == null || zone.isBlank()) {
                throw new IllegalArgumentException(
                        "Schedule '" + name + "' needs a time zone such as \"UTC\" or" + " \"Europe/Berlin\"");
            }
            try {
                return zone(ZoneId.of(zone.trim()));
            } catch (DateTimeException e) {
                throw new IllegalArgumentException(
                        "Schedule '" + name + "': unknown time zone \"" + zone
                                + "\"; use a region id such as \"Europe/Berlin\" or an offset such as \"+02:00\"",
                        e);
            }
        }

        /** The time zone a cron expression is read in (default UTC). */
        public Builder zone(ZoneId zone) {
            if (zone == null) {
                throw new IllegalArgumentException("Schedule '" + name + "': zone must not be null");
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
                            "Schedule '" + name + "': cron expression \"" + cronExpression
                                    + "\" never fires; check its day and month fields",
                            never);
                }
            }
            return schedule;
        }
    }
}
