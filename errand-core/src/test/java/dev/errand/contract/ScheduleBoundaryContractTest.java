package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.Errand;
import dev.errand.error.ErrandException;
import dev.errand.schedule.MisfirePolicy;
import dev.errand.schedule.Schedule;
import dev.errand.schedule.ScheduleAdmin;
import dev.errand.schedule.ScheduleInfo;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskKind;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every public method of {@code dev.errand.schedule} that takes a string, a duration, an instant or a number
 * tried with its boundary values, in one table, on a real database: each gets a clear
 * {@link IllegalArgumentException} (short, quoting at most 60 characters of the value) or its documented
 * result, never a database error, an overflow, a huge message or a lost row.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class ScheduleBoundaryContractTest extends ErrandTestSupport {

    record Tick(String note) {}

    private static final String TEN_MB = "x".repeat(10_000_000);
    private static final String MEGABYTE = "y".repeat(1_000_000);
    private static final String LONGEST_NAME = "n".repeat(Schedule.MAX_NAME_LENGTH);
    private static final String ONE_TOO_LONG = "n".repeat(Schedule.MAX_NAME_LENGTH + 1);
    private static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");
    private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999999999Z");

    /**
     * One call and what it must give.
     *
     * @param call what is called, with which value
     * @param action the call
     * @param expected what it must give: {@link #refused}, {@link #invalidState} or {@link #gives}
     */
    record Row(String call, Callable<Object> action, Function<Object, String> expected) {}

    ScheduleBoundaryContractTest(Target target) {
        super(target);
    }

    /** An {@link IllegalArgumentException} whose message holds {@code fragment}. */
    private static Function<Object, String> refused(String fragment) {
        return outcome ->
                outcome instanceof IllegalArgumentException e && e.getMessage().contains(fragment)
                        ? null
                        : "an IllegalArgumentException saying \"" + fragment + "\"";
    }

    /** An {@link IllegalStateException} whose message holds {@code fragment}. */
    private static Function<Object, String> invalidState(String fragment) {
        return outcome ->
                outcome instanceof IllegalStateException e && e.getMessage().contains(fragment)
                        ? null
                        : "an IllegalStateException saying \"" + fragment + "\"";
    }

    /** The result {@code value}. */
    private static Function<Object, String> gives(Object value) {
        return outcome -> value.equals(outcome) ? null : "the result " + value;
    }

    private static Schedule.Builder hourly(String name) {
        return Schedule.every(name, "tick", Duration.ofHours(1));
    }

    @Test
    void everyBoundaryValueGetsAClearErrorOrTheDocumentedResult() throws Exception {
        Errand errand = node(builder()
                .register(TaskDefinition.builder("tick", Tick.class, (tick, ctx) -> {})
                        .build())
                .register(TaskDefinition.builder("text", String.class, (text, ctx) -> {})
                        .build()));
        ScheduleAdmin admin = errand.schedules();
        admin.upsert(hourly("keeper").payload(new Tick("kept")).build());
        List<ScheduleInfo> before = admin.list();
        Schedule interval = hourly("interval").build();
        Schedule cron = Schedule.cron("cron", "tick", "0 * * * *").build();

        List<Row> table = new ArrayList<>();
        // Schedule.cron(name, kind, expression) and Schedule.every(name, kind, interval): the name and the kind.
        table.add(new Row("name null", () -> hourly(null), refused("Schedule name must be 1 to 100")));
        table.add(new Row("name empty", () -> hourly(""), refused("Schedule name must be 1 to 100")));
        table.add(new Row("name blank", () -> hourly("   "), refused("Schedule name must be 1 to 100")));
        table.add(new Row("name NUL", () -> hourly("a\0b"), refused("\"a\\u0000b\"")));
        table.add(new Row("name padded", () -> hourly(" a "), refused("must not start or end with whitespace")));
        table.add(new Row("name 10 MB", () -> hourly(TEN_MB), refused("at most 100 characters, got 10000000")));
        table.add(new Row("name 101", () -> hourly(ONE_TOO_LONG), refused("at most 100 characters, got 101")));
        table.add(new Row("name 100", () -> hourly(LONGEST_NAME).build().name(), gives(LONGEST_NAME)));
        table.add(new Row(
                "kind null",
                () -> Schedule.every("s", (String) null, Duration.ofHours(1)),
                refused("Task kind must be 1 to 200")));
        table.add(new Row(
                "kind blank", () -> Schedule.cron("s", " ", "* * * * *"), refused("Task kind must be 1 to 200")));
        table.add(new Row("kind NUL", () -> Schedule.cron("s", "\0", "* * * * *"), refused("control characters")));
        table.add(new Row(
                "kind 10 MB",
                () -> Schedule.cron("s", TEN_MB, "* * * * *"),
                refused("at most 200 characters, got 10000000")));
        table.add(new Row(
                "TaskKind null",
                () -> Schedule.cron("s", (TaskKind<?>) null, "* * * * *"),
                refused("kind must not be null")));
        table.add(new Row(
                "TaskKind null (every)",
                () -> Schedule.every("s", (TaskKind<?>) null, Duration.ofHours(1)),
                refused("kind must not be null")));
        // Schedule.cron: the expression.
        table.add(new Row("cron null", () -> Schedule.cron("s", "tick", null), refused("needs a cron expression")));
        table.add(new Row("cron empty", () -> Schedule.cron("s", "tick", ""), refused("needs a cron expression")));
        table.add(new Row("cron blank", () -> Schedule.cron("s", "tick", " \t "), refused("needs a cron expression")));
        table.add(new Row(
                "cron NUL", () -> Schedule.cron("s", "tick", "0 0 * * *\0"), refused("control character (U+0000")));
        table.add(new Row(
                "cron line break",
                () -> Schedule.cron("s", "tick", "0 0\n* * *"),
                refused("control character (U+000A")));
        table.add(new Row(
                "cron 10 MB",
                () -> Schedule.cron("s", "tick", TEN_MB),
                refused("(10000000 characters) is longer than 200")));
        table.add(new Row(
                "cron 203 valid",
                () -> Schedule.cron("s", "tick", "0" + ",0".repeat(97) + " * * * *"),
                refused("is longer than 200")));
        table.add(new Row(
                "cron 200 valid",
                () -> Schedule.cron("s", "tick", "10" + ",0".repeat(95) + " * * * *")
                        .build()
                        .timing()
                        .length(),
                gives(200)));
        table.add(
                new Row("cron 3 fields", () -> Schedule.cron("s", "tick", "* * *"), refused("\"* * *\" has 3 fields")));
        table.add(new Row("cron out of range", () -> Schedule.cron("s", "tick", "61 * * * *"), refused("is invalid")));
        table.add(new Row(
                "cron never fires",
                () -> Schedule.cron("s", "tick", "0 0 30 2 *").build(),
                refused("\"0 0 30 2 *\" never fires")));
        // Schedule.every: the interval.
        table.add(new Row("interval null", () -> hourlyEvery(null), refused("got null")));
        table.add(new Row("interval zero", () -> hourlyEvery(Duration.ZERO), refused("got PT0S")));
        table.add(new Row("interval -1ns", () -> hourlyEvery(Duration.ofNanos(-1)), refused("between 1s and 366d")));
        table.add(new Row(
                "interval min", () -> hourlyEvery(Duration.ofSeconds(Long.MIN_VALUE)), refused("between 1s and 366d")));
        table.add(new Row(
                "interval max",
                () -> hourlyEvery(Duration.ofSeconds(Long.MAX_VALUE, 999_999_999)),
                refused("between 1s and 366d")));
        table.add(new Row("interval 999ms", () -> hourlyEvery(Duration.ofMillis(999)), refused("got PT0.999S")));
        table.add(new Row(
                "interval 1s", () -> hourlyEvery(Duration.ofSeconds(1)).build().timing(), gives("every PT1S")));
        table.add(new Row(
                "interval 1s+1ns",
                () -> hourlyEvery(Duration.ofSeconds(1).plusNanos(1)),
                refused("whole number of milliseconds")));
        table.add(new Row(
                "interval 366d", () -> hourlyEvery(Duration.ofDays(366)).build().timing(), gives("every PT8784H")));
        table.add(new Row(
                "interval 366d+1ms",
                () -> hourlyEvery(Duration.ofDays(366).plusMillis(1)),
                refused("between 1s and 366d")));
        // Builder.queue.
        table.add(new Row("queue null", () -> hourly("s").queue(null), refused("Queue name must be 1 to 100")));
        table.add(new Row("queue blank", () -> hourly("s").queue(" "), refused("Queue name must be 1 to 100")));
        table.add(new Row("queue NUL", () -> hourly("s").queue("q\0"), refused("control characters")));
        table.add(new Row(
                "queue 10 MB", () -> hourly("s").queue(TEN_MB), refused("at most 100 characters, got 10000000")));
        // Builder.zone(String) and zone(ZoneId).
        table.add(new Row("zone null", () -> hourly("s").zone((String) null), refused("needs a time zone")));
        table.add(new Row("zone blank", () -> hourly("s").zone(" "), refused("needs a time zone")));
        table.add(new Row("zone NUL", () -> hourly("s").zone("UTC\0"), refused("\"UTC\\u0000\"")));
        table.add(new Row(
                "zone 10 MB",
                () -> hourly("s").zone(TEN_MB),
                refused("unknown time zone \"" + "x".repeat(60) + "...\" (10000000 characters)")));
        table.add(new Row(
                "zone unknown", () -> hourly("s").zone("Mars/Phobos"), refused("unknown time zone \"Mars/Phobos\"")));
        table.add(new Row(
                "zone padded",
                () -> hourly("s").zone(" Europe/Berlin ").build().zone(),
                gives(ZoneId.of("Europe/Berlin"))));
        table.add(
                new Row("zone offset", () -> hourly("s").zone("+02:00").build().zone(), gives(ZoneId.of("+02:00"))));
        table.add(new Row("ZoneId null", () -> hourly("s").zone((ZoneId) null), refused("zone must not be null")));
        // Builder.misfire and runAllMissed.
        table.add(new Row("misfire null", () -> hourly("s").misfire(null), refused("must not be null")));
        for (int limit : new int[] {Integer.MIN_VALUE, -1, 0, Schedule.MAX_MISFIRE_LIMIT + 1, Integer.MAX_VALUE}) {
            table.add(new Row(
                    "runAllMissed " + limit,
                    () -> hourly("s").runAllMissed(limit),
                    refused("between 1 and 1000, got " + limit)));
        }
        table.add(new Row(
                "runAllMissed 1000",
                () -> hourly("s").runAllMissed(1000).build().misfireLimit(),
                gives(Schedule.MAX_MISFIRE_LIMIT)));
        // nextSlotAfter and slotBefore, on an interval and on a cron schedule.
        for (Schedule schedule : List.of(interval, cron)) {
            String on = " (" + schedule.name() + ")";
            table.add(new Row("next null" + on, () -> schedule.nextSlotAfter(null), refused("got null")));
            table.add(new Row("next MIN" + on, () -> schedule.nextSlotAfter(Instant.MIN), refused("from 0001-01-01")));
            table.add(new Row("next MAX" + on, () -> schedule.nextSlotAfter(Instant.MAX), refused("to 9999-12-31")));
            table.add(new Row(
                    "next before EARLIEST" + on,
                    () -> schedule.nextSlotAfter(EARLIEST.minusNanos(1)),
                    refused("from 0001-01-01")));
            table.add(new Row(
                    "next EARLIEST" + on,
                    () -> schedule.nextSlotAfter(EARLIEST),
                    gives(EARLIEST.plus(Duration.ofHours(1)))));
            table.add(new Row(
                    "next LATEST" + on,
                    () -> schedule.nextSlotAfter(LATEST),
                    gives(Instant.parse("+10000-01-01T00:00:00Z"))));
            table.add(new Row(
                    "next after LATEST" + on,
                    () -> schedule.nextSlotAfter(LATEST.plusNanos(1)),
                    refused("to 9999-12-31")));
            table.add(new Row("before null" + on, () -> schedule.slotBefore(null), refused("got null")));
            table.add(new Row("before MIN" + on, () -> schedule.slotBefore(Instant.MIN), refused("from 0001-01-01")));
            table.add(new Row("before MAX" + on, () -> schedule.slotBefore(Instant.MAX), refused("to 9999-12-31")));
            table.add(new Row(
                    "before LATEST" + on,
                    () -> schedule.slotBefore(LATEST),
                    gives(Optional.of(Instant.parse("9999-12-31T23:00:00Z")))));
            table.add(new Row(
                    "before EPOCH" + on,
                    () -> schedule.slotBefore(Instant.EPOCH),
                    gives(Optional.of(Instant.parse("1969-12-31T23:00:00Z")))));
        }
        // ScheduleAdmin's lookups: any name a row can hold; null and names longer than the column are refused.
        // None may reach or change another row: MariaDB compares 'keeper ' and 'KEEPER' with 'keeper' as equal.
        for (String what : List.of("find", "pause", "resume", "remove")) {
            Function<String, Object> call = name -> switch (what) {
                case "find" -> admin.find(name);
                case "pause" -> admin.pause(name);
                case "resume" -> admin.resume(name);
                default -> admin.remove(name);
            };
            Object none = what.equals("find") ? Optional.empty() : false;
            table.add(new Row(what + " null", () -> call.apply(null), refused("must not be null")));
            table.add(new Row(
                    what + " 10 MB",
                    () -> call.apply(TEN_MB),
                    refused("at most 100 characters, got \"" + "x".repeat(60) + "...\" (10000000 characters)")));
            table.add(new Row(what + " 101", () -> call.apply(ONE_TOO_LONG), refused("at most 100 characters")));
            for (String absent : List.of("", " ", "\0", "keeper\0", LONGEST_NAME, "keeper ", " keeper", "KEEPER")) {
                table.add(new Row(what + " " + Names.printable(absent), () -> call.apply(absent), gives(none)));
            }
        }
        // ScheduleAdmin.upsert: what an enqueue would refuse, and the payloads that are strings.
        table.add(new Row("upsert null", () -> upsert(admin, null), refused("schedule must not be null")));
        table.add(new Row(
                "upsert payload NUL",
                () -> upsert(
                        admin,
                        Schedule.every("text", "text", Duration.ofHours(1))
                                .payload("a\0b")
                                .build()),
                refused("contains a NUL character")));
        table.add(new Row(
                "upsert payload empty",
                () -> upsert(
                        admin,
                        Schedule.every("text", "text", Duration.ofHours(1))
                                .payload("")
                                .build()),
                gives("text")));
        table.add(new Row(
                "upsert payload 1 MB",
                () -> upsert(
                        admin,
                        Schedule.every("text", "text", Duration.ofHours(1))
                                .payload(MEGABYTE)
                                .build()),
                gives("text")));
        table.add(new Row(
                "upsert payload of another type",
                () -> upsert(admin, hourly("typed").payload("text").build()),
                refused("takes a payload of type")));
        table.add(new Row(
                "upsert queue undeclared",
                () -> upsert(admin, hourly("queued").queue("elsewhere").build()),
                refused("queue 'elsewhere', which is not configured")));
        table.add(new Row(
                "upsert KEEPER",
                () -> upsert(admin, hourly("KEEPER").build()) + "+"
                        + admin.find("keeper").orElseThrow().name(),
                gives("KEEPER+keeper")));
        table.add(new Row("remove KEEPER", () -> admin.remove("KEEPER"), gives(true)));
        table.add(new Row("remove text", () -> admin.remove("text"), gives(true)));
        // ScheduleInfo is a value: it holds what it is given.
        table.add(new Row(
                "ScheduleInfo 10 MB",
                () -> new ScheduleInfo(TEN_MB, null, null, null, null, MisfirePolicy.SKIP, false, null, null, null)
                        .name()
                        .length(),
                gives(10_000_000)));

        List<String> wrong = new ArrayList<>();
        for (Row row : table) {
            Object outcome;
            try {
                outcome = row.action().call();
            } catch (Exception e) {
                outcome = e;
            }
            String mismatch = row.expected().apply(outcome);
            if (outcome instanceof Exception e) {
                String message = String.valueOf(e.getMessage());
                if (message.length() > 600 || e instanceof ErrandException || e instanceof ArithmeticException) {
                    mismatch = "a short message, not a database error or an overflow";
                }
            }
            if (mismatch != null) {
                wrong.add(row.call() + ": expected " + mismatch + ", got " + describe(outcome));
            }
        }
        assertThat(wrong).as("rows that gave something else").isEmpty();
        assertThat(admin.list()).as("no row lost or changed").isEqualTo(before);
    }

    private static Schedule.Builder hourlyEvery(Duration interval) {
        return Schedule.every("s", "tick", interval);
    }

    private static String upsert(ScheduleAdmin admin, Schedule schedule) {
        admin.upsert(schedule);
        return schedule.name();
    }

    private static String describe(Object outcome) {
        if (outcome instanceof Exception e) {
            String message = String.valueOf(e.getMessage());
            return e.getClass().getName() + ": "
                    + (message.length() > 300 ? message.substring(0, 300) + "... (" + message.length() + ")" : message);
        }
        return String.valueOf(outcome);
    }

    /** Names for the table's labels. */
    private static final class Names {
        static String printable(String value) {
            return value.length() > 20
                    ? "<" + value.length() + " characters>"
                    : "\"" + value.replace("\0", "\\0") + "\"";
        }

        private Names() {}
    }
}
