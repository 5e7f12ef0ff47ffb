package dev.errand.internal.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.schedule.MisfirePolicy;
import dev.errand.schedule.Schedule;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which slots fire: cron and interval timing, daylight saving, misfire policies and bad input; no database. */
class SlotsTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    private static List<Instant> slotsOfOneDay(Schedule schedule, String day) {
        Instant from = LocalDateTime.parse(day + "T00:00:00").atZone(BERLIN).toInstant();
        Instant to = from.plus(Duration.ofHours(25));
        List<Instant> slots = new ArrayList<>();
        Instant slot = schedule.nextSlotAfter(from.minusNanos(1));
        while (slot.isBefore(to) && slots.size() < 100) {
            slots.add(slot);
            slot = schedule.nextSlotAfter(slot);
        }
        return slots;
    }

    @Test
    void aDailyCronFiresOnceOnTheSpringForwardAndTheFallBackDays() {
        // 02:30 does not exist on 2026-03-29 in Berlin and exists twice on 2026-10-25.
        Schedule nightly = Schedule.cron("nightly", "report", "30 2 * * *")
                .zone("Europe/Berlin")
                .build();
        for (String day : List.of("2026-03-29", "2026-10-25", "2026-07-01")) {
            List<Instant> slots = slotsOfOneDay(nightly, day).stream()
                    .filter(slot -> slot.atZone(BERLIN).toLocalDate().toString().equals(day))
                    .toList();
            assertThat(slots).as("slots on %s", day).hasSize(1);
        }
    }

    @Test
    void anHourlyCronFiresOncePerLocalHourAcrossTransitions() {
        Schedule hourly = Schedule.cron("hourly", "report", "0 * * * *")
                .zone("Europe/Berlin")
                .build();
        for (String day : List.of("2026-03-29", "2026-10-25")) {
            List<Instant> slots = slotsOfOneDay(hourly, day).stream()
                    .filter(slot -> slot.atZone(BERLIN).toLocalDate().toString().equals(day))
                    .toList();
            assertThat(slots).doesNotHaveDuplicates();
            List<Integer> hours =
                    slots.stream().map(slot -> slot.atZone(BERLIN).getHour()).toList();
            // Spring forward: 02:00 does not exist and merges into 03:00 (23 slots); fall back: 02:00 once (24).
            assertThat(hours).as(day).doesNotHaveDuplicates();
            assertThat(slots).hasSize(day.equals("2026-03-29") ? 23 : 24);
        }
        Instant firstTwoAm = LocalDateTime.parse("2026-10-25T02:00:00")
                .atZone(BERLIN)
                .withEarlierOffsetAtOverlap()
                .toInstant();
        assertThat(slotsOfOneDay(hourly, "2026-10-25")).contains(firstTwoAm);
    }

    @Test
    void aSlotInTheSpringForwardGapFiresRightAfterTheGap() {
        Schedule nightly = Schedule.cron("nightly", "report", "30 2 * * *")
                .zone("Europe/Berlin")
                .build();
        Instant slot = nightly.nextSlotAfter(Instant.parse("2026-03-28T12:00:00Z"));
        assertThat(slot.atZone(BERLIN).toLocalDateTime()).isEqualTo(LocalDateTime.parse("2026-03-29T03:30:00"));
        Instant fallBack = nightly.nextSlotAfter(Instant.parse("2026-10-24T12:00:00Z"));
        assertThat(fallBack).isEqualTo(Instant.parse("2026-10-25T00:30:00Z"));
        assertThat(nightly.nextSlotAfter(fallBack)).isEqualTo(Instant.parse("2026-10-26T01:30:00Z"));
    }

    @Test
    void intervalSlotsAreMultiplesOfTheIntervalSinceTheEpoch() {
        Schedule every5 = Schedule.every("sync", "sync", Duration.ofMinutes(5)).build();
        assertThat(every5.nextSlotAfter(Instant.parse("2026-11-23T10:02:13Z")))
                .isEqualTo(Instant.parse("2026-11-23T10:05:00Z"));
        assertThat(every5.nextSlotAfter(Instant.parse("2026-11-23T10:05:00Z")))
                .isEqualTo(Instant.parse("2026-11-23T10:10:00Z"));
        assertThat(every5.slotBefore(Instant.parse("2026-11-23T10:05:00Z")))
                .contains(Instant.parse("2026-11-23T10:00:00Z"));
    }

    @Test
    void secondsAreOptionalInACronExpression() {
        Schedule withSeconds = Schedule.cron("s", "k", "30 */5 * * * *").build();
        assertThat(withSeconds.nextSlotAfter(Instant.parse("2026-11-23T10:00:00Z")))
                .isEqualTo(Instant.parse("2026-11-23T10:00:30Z"));
    }

    @Test
    void slotsWithinTheGraceAllFireAndMissedOnesFollowThePolicy() {
        Instant next = Instant.parse("2026-11-23T10:00:00Z");
        Instant now = Instant.parse("2026-11-23T10:10:30Z");
        Schedule.Builder minutely = Schedule.every("m", "k", Duration.ofMinutes(1));
        // Slots 10:00 … 10:09 were missed (older than the one-minute grace); 10:10 is on time.
        assertThat(Slots.due(minutely.build(), next, now)).containsExactly(Instant.parse("2026-11-23T10:10:00Z"));
        assertThat(Slots.due(minutely.misfire(MisfirePolicy.RUN_ONCE).build(), next, now))
                .containsExactly(Instant.parse("2026-11-23T10:09:00Z"), Instant.parse("2026-11-23T10:10:00Z"));
        assertThat(Slots.due(minutely.runAllMissed(3).build(), next, now))
                .containsExactly(
                        Instant.parse("2026-11-23T10:07:00Z"),
                        Instant.parse("2026-11-23T10:08:00Z"),
                        Instant.parse("2026-11-23T10:09:00Z"),
                        Instant.parse("2026-11-23T10:10:00Z"));
        assertThat(Slots.due(minutely.runAllMissed(1000).build(), next, now)).hasSize(11);
        // On time: every due slot fires, whatever the policy.
        Instant soon = Instant.parse("2026-11-23T10:00:40Z");
        assertThat(Slots.due(minutely.misfire(MisfirePolicy.SKIP).build(), next, soon))
                .containsExactly(next);
    }

    @Test
    void badInputIsRefusedWhenTheScheduleIsDeclared() {
        assertThatThrownBy(() -> Schedule.cron("bad", "k", "61 * * * *"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"61 * * * *\"")
                .hasMessageContaining("invalid");
        assertThatThrownBy(() -> Schedule.cron("bad", "k", "* * *"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has 3 fields");
        assertThatThrownBy(() -> Schedule.cron("z", "k", "0 * * * *").zone("Mars/Olympus"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown time zone \"Mars/Olympus\"");
        assertThatThrownBy(() -> Schedule.every("i", "k", Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("interval must be between 1s and 366d");
        assertThatThrownBy(() -> Schedule.every("i", "k", Duration.ofMinutes(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Schedule.cron(" ", "k", "0 * * * *")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Schedule.every("x".repeat(101), "k", Duration.ofMinutes(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Schedule.cron("feb30", "k", "0 0 30 2 *").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("never fires");
        assertThatThrownBy(() -> Schedule.every("r", "k", Duration.ofMinutes(1)).runAllMissed(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 1 and 1000");
    }
}
