package dev.errand.internal.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class FiringPaceTest {

    @Test
    void thePauseKeepsFiringToItsShareOfTheTime() {
        assertThat(new FiringPace(25).pauseNanos(40_000_000)).isEqualTo(120_000_000);
        assertThat(new FiringPace(50).pauseNanos(40_000_000)).isEqualTo(40_000_000);
        assertThat(new FiringPace(1).pauseNanos(10_000_000)).isEqualTo(990_000_000);
        assertThat(new FiringPace(100).pauseNanos(40_000_000)).isZero();
        assertThat(new FiringPace(25).pauseNanos(-5)).isZero();
    }

    @Test
    void aPauseSleepsAndAnInterruptEndsTheSweep() {
        FiringPace pace = new FiringPace(50);
        long started = System.nanoTime();
        assertThat(pace.pauseAfter(30_000_000)).isTrue();
        assertThat(System.nanoTime() - started).isGreaterThanOrEqualTo(30_000_000);

        Thread.currentThread().interrupt();
        try {
            assertThat(pace.pauseAfter(30_000_000)).isFalse();
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThat(new FiringPace(100).pauseAfter(Long.MAX_VALUE / 200)).isTrue();
    }

    @Test
    void aShareOutsideOneToAHundredPercentIsRefused() {
        assertThatThrownBy(() -> new FiringPace(0)).hasMessageContaining("1 to 100");
        assertThatThrownBy(() -> new FiringPace(101)).hasMessageContaining("1 to 100");
    }
}
