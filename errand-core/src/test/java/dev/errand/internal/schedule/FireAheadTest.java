package dev.errand.internal.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** When a slot's task is written: the lead per name, its spread, and its bounds; no database. */
class FireAheadTest {

    private static final Duration MINUTE = Duration.ofMinutes(1);
    private static final Instant SLOT = Instant.parse("2026-11-27T12:00:00Z");

    @Test
    void theLeadDependsOnTheNameAloneAndStaysWithinTheLookahead() {
        FireAhead ahead = new FireAhead(MINUTE);
        for (int i = 0; i < 10_000; i++) {
            Duration lead = ahead.lead("schedule-" + i);
            assertThat(lead).isGreaterThanOrEqualTo(Duration.ZERO).isLessThan(MINUTE);
            assertThat(new FireAhead(MINUTE).lead("schedule-" + i)).isEqualTo(lead);
        }
    }

    @Test
    void schedulesWithSimilarNamesAreWrittenSpreadOverTheWholeWindow() {
        // Names as people number them, one character apart: each second of the minute gets its share.
        FireAhead ahead = new FireAhead(MINUTE);
        int[] perSecond = new int[60];
        for (int i = 1; i <= 10_000; i++) {
            perSecond[(int) ahead.lead(String.format("report-%05d", i)).toSeconds()]++;
        }
        // 10,000 over 60 seconds is 167 a second on average.
        assertThat(java.util.Arrays.stream(perSecond).boxed().toList())
                .allSatisfy(count -> assertThat(count).isBetween(110, 225));
    }

    @Test
    void aSlotIsNeverWrittenBeforeThePreviousSlotNorAfterItself() {
        FireAhead ahead = new FireAhead(MINUTE);
        String name = "every-ten-seconds";
        Instant previous = SLOT.minusSeconds(10);
        Instant fireAt = ahead.fireAt(name, SLOT, previous);
        assertThat(fireAt).isBetween(previous, SLOT);
        assertThat(fireAt).isEqualTo(max(SLOT.minus(ahead.lead(name)), previous));
    }

    @Test
    void aZeroLookaheadWritesEachSlotWhenItComes() {
        FireAhead now = new FireAhead(Duration.ZERO);
        assertThat(now.lead("any")).isZero();
        assertThat(now.fireAt("any", SLOT, SLOT.minusSeconds(3600))).isEqualTo(SLOT);
    }

    @Test
    void aNegativeLookaheadIsRefused() {
        assertThatThrownBy(() -> new FireAhead(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("zero or more");
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
