package dev.errand.internal.store;

import java.time.Duration;

/** Durations as the microseconds that the time fragments of the SQL bind. */
public final class Micros {

    private Micros() {}

    /**
     * Converts a duration to microseconds, saturating at the bounds of a {@code long} instead of
     * overflowing: a delay that overflowed would wrap around to the past and run a task at once.
     */
    public static long of(Duration duration) {
        try {
            return Math.addExact(Math.multiplyExact(duration.getSeconds(), 1_000_000L), duration.getNano() / 1_000);
        } catch (ArithmeticException overflow) {
            return duration.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    /**
     * Converts an age to microseconds, rounded up: a cut-off {@code now - age} then never falls after the
     * instant the caller meant, so a row younger than the age is never older than the cut-off.
     *
     * @param age an age of zero or more
     */
    public static long ofAge(Duration age) {
        long micros = of(age);
        return age.getNano() % 1_000 == 0 || micros == Long.MAX_VALUE ? micros : micros + 1;
    }

    /** Adds two microsecond amounts, saturating instead of overflowing. */
    public static long plus(long a, long b) {
        long sum = a + b;
        if (((a ^ sum) & (b ^ sum)) < 0) {
            return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return sum;
    }
}
