package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.ErrandBuilder;
import dev.errand.admin.TaskQuery;
import dev.errand.internal.schedule.FireAhead;
import dev.errand.schedule.Schedule;
import dev.errand.schedule.ScheduleInfo;
import dev.errand.task.Task;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.time.zone.ZoneOffsetTransition;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Schedules write each slot's task ahead of the slot, spread over the lookahead, on a real database with a
 * clock the test moves: the task waits as pending until its slot; changes, pauses and removals reach the
 * task written ahead and never one whose slot has come; and the daylight-saving days of Berlin.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class ScheduleFireAheadContractTest extends ErrandTestSupport {

    record Tick(String note) {}

    private static final Duration LOOKAHEAD = Duration.ofMinutes(1);
    private static final FireAhead FIRE_AHEAD = new FireAhead(LOOKAHEAD);
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    ScheduleFireAheadContractTest(Target target) {
        super(target);
    }

    /** A node that runs the ticks and records their notes. */
    private ErrandBuilder runner() {
        return builder()
                .register(TaskDefinition.builder(
                                "tick",
                                Tick.class,
                                (tick, ctx) -> recordEffect(
                                        ctx.connection(), ctx.taskId(), tick == null ? "none" : tick.note()))
                        .build());
    }

    /** A node that fires schedules but runs no task: their tasks stay for the test to read. */
    private ErrandBuilder firerOnly() {
        return runner().processingEnabled(false);
    }

    private Instant now() throws SQLException {
        return databaseNow().plus(clock.offset());
    }

    /** Moves the test clock so that the database's time, as Errand reads it, is about {@code target}. */
    private void moveTo(Instant target) throws SQLException {
        clock.advance(Duration.between(now(), target));
    }

    /**
     * Puts the clock ten minutes past an even hour (since the epoch), so that the next hourly slot is 50
     * minutes away and is not a slot of a two-hour interval.
     */
    private Instant tenPastAnHour() throws SQLException {
        Instant hour = now().truncatedTo(ChronoUnit.HOURS).plus(Duration.ofHours(2));
        if (hour.getEpochSecond() / 3600 % 2 != 0) {
            hour = hour.plus(Duration.ofHours(1));
        }
        Instant at = hour.plus(Duration.ofMinutes(10));
        moveTo(at);
        return at;
    }

    /** A name whose lead is between 20 and 50 seconds, so that "ahead of the slot" is wide enough to test. */
    private static String nameWithLead(String base) {
        return IntStream.range(0, 1_000)
                .mapToObj(i -> base + "-" + i)
                .filter(name -> {
                    long lead = FIRE_AHEAD.lead(name).toSeconds();
                    return lead >= 20 && lead <= 50;
                })
                .findFirst()
                .orElseThrow();
    }

    private static Schedule hourly(String name, String note) {
        return Schedule.every(name, "tick", Duration.ofHours(1))
                .payload(new Tick(note))
                .build();
    }

    /** The tasks a schedule wrote, oldest slot first. */
    private List<Task> tasksOf(Errand node, String schedule) {
        return node.admin().list(TaskQuery.builder().kind("tick").limit(1_000).build()).items().stream()
                .filter(task -> task.uniqueKey() != null && task.uniqueKey().startsWith("schedule:" + schedule + "@"))
                .sorted((a, b) -> a.runAt().compareTo(b.runAt()))
                .toList();
    }

    /** A started node whose hourly schedule has just written its next slot's task ahead of the slot. */
    private record Ahead(Errand node, String name, Instant slot) {}

    private Ahead writtenAhead(String base, String note, ErrandBuilder builder) throws Exception {
        tenPastAnHour();
        String name = nameWithLead(base);
        Errand node = node(builder.schedule(hourly(name, note)));
        node.start();
        Instant slot = node.schedules().find(name).orElseThrow().nextRunAt();
        moveTo(slot.minus(FIRE_AHEAD.lead(name)).plusSeconds(2));
        await().atMost(Duration.ofSeconds(10)).until(() -> tasksOf(node, name).size() == 1);
        return new Ahead(node, name, slot);
    }

    @Test
    void aSlotIsWrittenAheadAndWaitsAsPendingUntilItComes() throws Exception {
        tenPastAnHour();
        String name = nameWithLead("ahead");
        Errand node = node(runner().schedule(hourly(name, "ahead")));
        node.start();
        Instant slot = node.schedules().find(name).orElseThrow().nextRunAt();
        Instant fireAt = slot.minus(FIRE_AHEAD.lead(name));

        moveTo(fireAt.minusSeconds(5));
        Thread.sleep(300); // the point: nothing is written in this time
        assertThat(tasksOf(node, name)).as("not written before its time").isEmpty();

        moveTo(fireAt.plusSeconds(2));
        await().atMost(Duration.ofSeconds(10)).until(() -> tasksOf(node, name).size() == 1);
        Task written = tasksOf(node, name).get(0);
        assertThat(written.state()).isEqualTo(TaskState.PENDING);
        assertThat(written.runAt()).isEqualTo(slot);
        assertThat(written.uniqueKey()).isEqualTo("schedule:" + name + "@" + slot.toEpochMilli());
        ScheduleInfo info = node.schedules().find(name).orElseThrow();
        assertThat(info.nextRunAt())
                .as("the slot written ahead is still the next run")
                .isEqualTo(slot);
        assertThat(info.lastRunAt()).isNull();
        Thread.sleep(300); // the point: nothing runs in this time
        assertThat(effects()).as("it does not run before its slot").isZero();

        moveTo(slot.plusSeconds(1));
        await().atMost(Duration.ofSeconds(10)).until(() -> effects() == 1);
        info = node.schedules().find(name).orElseThrow();
        assertThat(info.lastRunAt()).isEqualTo(slot);
        assertThat(info.nextRunAt()).isEqualTo(slot.plus(Duration.ofHours(1)));
    }

    @Test
    void schedulesOnOneSlotAreWrittenSpreadOverTheMinuteBeforeIt() throws Exception {
        tenPastAnHour();
        ErrandBuilder builder = firerOnly();
        for (int i = 0; i < 300; i++) {
            builder.schedule(hourly("spread-" + i, "spread"));
        }
        Errand node = node(builder);
        node.start();
        Instant slot = node.schedules().find("spread-0").orElseThrow().nextRunAt();

        moveTo(slot.minusSeconds(30));
        // Those whose lead is 30 s or more (about half of 300) are written by now, and no other; the
        // database's time goes on meanwhile, so allow the leads of the next 3 s too.
        long expected = withLeadOver(Duration.ofSeconds(30));
        long allowed = withLeadOver(Duration.ofSeconds(27));
        assertThat(expected).isBetween(100L, 200L);
        await().atMost(Duration.ofSeconds(10)).until(() -> tasksIn(TaskState.PENDING) >= expected);
        assertThat(tasksIn(TaskState.PENDING)).isBetween(expected, allowed);

        moveTo(slot.plusSeconds(1));
        await().atMost(Duration.ofSeconds(10)).until(() -> tasksIn(TaskState.PENDING) == 300);
        Thread.sleep(300); // the point: no other task is written in this time
        assertThat(taskRows()).as("one task per schedule, each at the slot").isEqualTo(300);
        assertThat(scalar("SELECT COUNT(DISTINCT run_at) FROM " + prefix + "task"))
                .isEqualTo(1);
    }

    private static long withLeadOver(Duration lead) {
        return IntStream.range(0, 300)
                .filter(i -> FIRE_AHEAD.lead("spread-" + i).compareTo(lead) >= 0)
                .count();
    }

    @Test
    void aNewPayloadReachesTheTaskWrittenAheadAndARestartKeepsIt() throws Exception {
        Ahead ahead = writtenAhead("payload", "old", runner());
        Errand node = ahead.node();
        String name = ahead.name();
        Instant slot = ahead.slot();
        long written = tasksOf(node, name).get(0).id();

        // Another node starting with the same declaration changes nothing: the task stays as it is.
        node(runner().processingEnabled(false).schedule(hourly(name, "old")));
        assertThat(tasksOf(node, name)).singleElement().satisfies(task -> assertThat(task.id())
                .isEqualTo(written));

        node.schedules().upsert(hourly(name, "new"));
        assertThat(tasksOf(node, name)).singleElement().satisfies(task -> {
            assertThat(task.id()).isEqualTo(written);
            assertThat(task.payloadJson()).contains("new");
            assertThat(task.runAt()).isEqualTo(slot);
        });
        moveTo(slot.plusSeconds(1));
        await().atMost(Duration.ofSeconds(10)).until(() -> effects() == 1);
        assertThat(effectNotes()).containsExactly("new");
    }

    @Test
    void aPauseTakesTheTaskWrittenAheadBackAndAResumeWritesItAgain() throws Exception {
        Ahead ahead = writtenAhead("pause", "paused", runner());
        Errand node = ahead.node();
        String name = ahead.name();
        Instant slot = ahead.slot();

        assertThat(node.schedules().pause(name)).isTrue();
        assertThat(tasksOf(node, name)).as("taken back").isEmpty();
        ScheduleInfo paused = node.schedules().find(name).orElseThrow();
        assertThat(paused.paused()).isTrue();
        assertThat(paused.nextRunAt()).isEqualTo(slot);
        Thread.sleep(300); // the point: nothing is written in this time
        assertThat(tasksOf(node, name)).as("a paused schedule writes nothing").isEmpty();

        assertThat(node.schedules().resume(name)).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> tasksOf(node, name).size() == 1);
        assertThat(tasksOf(node, name).get(0).runAt()).isEqualTo(slot);
        assertThat(node.schedules().resume(name))
                .as("resuming a running schedule changes nothing")
                .isTrue();
        assertThat(tasksOf(node, name)).hasSize(1);

        moveTo(slot.plusSeconds(1));
        await().atMost(Duration.ofSeconds(10)).until(() -> effects() == 1);
        Thread.sleep(300); // the point: a double run, if any, would land in this time
        assertThat(effects()).isEqualTo(1);
    }

    @Test
    void aNewTimingOrARemovalTakesTheTaskWrittenAheadBack() throws Exception {
        Ahead ahead = writtenAhead("retimed", "retimed", runner());
        Errand node = ahead.node();
        String name = ahead.name();
        Instant slot = ahead.slot();

        // Every two hours: the odd hour's slot written ahead is not one of the new slots, the next even hour is.
        node.schedules()
                .upsert(Schedule.every(name, "tick", Duration.ofHours(2))
                        .payload(new Tick("retimed"))
                        .build());
        assertThat(tasksOf(node, name)).as("the old slot's task is taken back").isEmpty();
        assertThat(node.schedules().find(name).orElseThrow().nextRunAt()).isEqualTo(slot.plus(Duration.ofHours(1)));
        moveTo(slot.plusSeconds(1));
        Thread.sleep(300); // the point: nothing runs in this time
        assertThat(effects()).as("the old slot does not run").isZero();

        String removed = nameWithLead("removed");
        node.schedules().upsert(hourly(removed, "removed"));
        Instant removedSlot = node.schedules().find(removed).orElseThrow().nextRunAt();
        assertThat(removedSlot).isEqualTo(slot.plus(Duration.ofHours(1)));
        moveTo(removedSlot.minus(FIRE_AHEAD.lead(removed)).plusSeconds(2));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> tasksOf(node, removed).size() == 1);
        assertThat(node.schedules().remove(removed)).isTrue();
        assertThat(tasksOf(node, removed))
                .as("a removed schedule's future slot never runs")
                .isEmpty();
        moveTo(removedSlot.plusSeconds(1));
        Thread.sleep(500); // the point: nothing runs in this time
        assertThat(effectNotes()).doesNotContain("removed");
    }

    @Test
    void aTaskWhoseSlotHasComeIsNeverTakenBack() throws Exception {
        // Nothing runs the tasks: the slot's task is still pending when the slot has come.
        Ahead ahead = writtenAhead("come", "come", firerOnly());
        Errand node = ahead.node();
        String name = ahead.name();
        Instant slot = ahead.slot();

        moveTo(slot.plusSeconds(1));
        assertThat(node.schedules().pause(name)).isTrue();
        assertThat(node.schedules().remove(name)).isTrue();
        assertThat(tasksOf(node, name)).singleElement().satisfies(task -> {
            assertThat(task.state()).isEqualTo(TaskState.PENDING);
            assertThat(task.runAt()).isEqualTo(slot);
        });
    }

    @Test
    void aZeroLookaheadWritesEachSlotWhenItComes() throws Exception {
        tenPastAnHour();
        String name = nameWithLead("punctual");
        Errand node = node(firerOnly().scheduleLookahead(Duration.ZERO).schedule(hourly(name, "punctual")));
        node.start();
        Instant slot = node.schedules().find(name).orElseThrow().nextRunAt();
        moveTo(slot.minusSeconds(2));
        Thread.sleep(300); // the point: nothing is written in this time
        assertThat(tasksOf(node, name)).isEmpty();
        moveTo(slot.plusSeconds(1));
        await().atMost(Duration.ofSeconds(10)).until(() -> tasksOf(node, name).size() == 1);
    }

    @Test
    void aLookaheadOutsideZeroToAnHourIsRefused() {
        assertThatThrownBy(() -> builder().scheduleLookahead(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("scheduleLookahead");
        assertThatThrownBy(() -> builder().scheduleLookahead(Duration.ofHours(2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("scheduleLookahead");
        assertThatThrownBy(() -> builder().scheduleLookahead(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("scheduleLookahead");
    }

    /**
     * Every slot of an hourly and of a daily cron in Berlin on its next spring-forward day and its next
     * fall-back day, written by a node that follows the clock slot by slot: 23 and 24 hourly slots, each local
     * hour once, and the 02:30 slot once on each day (on the spring-forward day at 03:30 CEST, the first
     * instant after the gap; on the fall-back day at its first occurrence, 02:30 CEST).
     */
    @Test
    void theDaylightSavingDaysNeitherSkipNorDoubleASlot() throws Exception {
        List<ZoneOffsetTransition> transitions = new ArrayList<>();
        Instant after = now();
        while (transitions.size() < 2) {
            ZoneOffsetTransition transition = BERLIN.getRules().nextTransition(after);
            transitions.add(transition);
            after = transition.getInstant();
        }
        for (ZoneOffsetTransition transition : transitions) {
            LocalDate date = transition.getDateTimeBefore().toLocalDate();
            String day = date.toString();
            Instant start = date.atStartOfDay(BERLIN).toInstant();
            Instant end = date.plusDays(1).atStartOfDay(BERLIN).toInstant();
            moveTo(start.minusSeconds(90));
            String hourly = "hourly-" + day;
            String nightly = "nightly-" + day;
            Errand node = node(firerOnly()
                    .schedule(Schedule.cron(hourly, "tick", "0 * * * *")
                            .zone(BERLIN)
                            .build())
                    .schedule(Schedule.cron(nightly, "tick", "30 2 * * *")
                            .zone(BERLIN)
                            .build()));
            node.start();
            Instant next = start;
            while (next.isBefore(end)) {
                moveTo(next.plusSeconds(1));
                Instant reached = next;
                await().atMost(Duration.ofSeconds(10))
                        .pollInterval(Duration.ofMillis(10))
                        .until(() -> node.schedules().list().stream()
                                .filter(info -> info.name().endsWith(day))
                                .allMatch(info -> info.nextRunAt().isAfter(reached)));
                next = node.schedules().list().stream()
                        .filter(info -> info.name().endsWith(day))
                        .map(ScheduleInfo::nextRunAt)
                        .min(Instant::compareTo)
                        .orElseThrow();
            }
            node.stop(Duration.ofSeconds(5));
            List<Instant> hours = slotsWithin(tasksOf(node, hourly), start, end);
            List<Instant> nights = slotsWithin(tasksOf(node, nightly), start, end);
            int expectedHours = transition.isGap() ? 23 : 24;
            assertThat(hours)
                    .as("hourly slots on %s", day)
                    .hasSize(expectedHours)
                    .doesNotHaveDuplicates();
            assertThat(hours.stream().map(slot -> slot.atZone(BERLIN).getHour()))
                    .as("each local hour once on %s", day)
                    .doesNotHaveDuplicates()
                    .hasSize(expectedHours);
            assertThat(nights).as("the nightly slot on %s", day).hasSize(1);
            // ZonedDateTime resolves a local time the same way: after a gap, the earlier offset in an overlap.
            assertThat(nights.get(0))
                    .isEqualTo(date.atTime(2, 30).atZone(BERLIN).toInstant());
        }
        assertThat(transitions).anyMatch(ZoneOffsetTransition::isGap).anyMatch(ZoneOffsetTransition::isOverlap);
    }

    private static List<Instant> slotsWithin(List<Task> tasks, Instant start, Instant end) {
        return tasks.stream()
                .map(Task::runAt)
                .filter(slot -> !slot.isBefore(start) && slot.isBefore(end))
                .toList();
    }
}
