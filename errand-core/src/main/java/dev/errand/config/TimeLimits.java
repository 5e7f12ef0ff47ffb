package dev.errand.config;

import dev.errand.retry.Delays;
import java.time.Duration;
import java.time.Instant;

/**
 * The one rule for the durations and instants Errand's API accepts. Errand adds a duration to the database's
 * clock, or subtracts it, inside SQL: a delay, a timeout, a retention, the age of a prune, the lateness of an
 * overdue task. Every database must compute that without overflowing (H2 wraps around past about 292 years,
 * PostgreSQL stops at "timestamp out of range", MariaDB at the year 9999), so every such duration is
 * between zero and {@link #MAX_DURATION}, and every instant between {@link #EARLIEST} and {@link #LATEST}.
 * A value outside is refused with an {@link IllegalArgumentException} naming the range; nothing is clamped,
 * so no call ever means something other than what it says. Durations that only bound a wait in this JVM
 * (such as a stop timeout) accept anything from zero up, {@code ChronoUnit.FOREVER} included: see
 * {@link #nanosOf(Duration)}.
 */
public final class TimeLimits {

    /**
     * The longest duration Errand measures on the database's clock: 36,500 days (100 years), the same bound as
     * {@link Delays#MAX} for delays.
     */
    public static final Duration MAX_DURATION = Delays.MAX;

    /** The earliest instant Errand stores or compares: the start of the year 1000, MariaDB's first. */
    public static final Instant EARLIEST = Instant.parse("1000-01-01T00:00:00Z");

    /** The latest instant Errand stores or compares: the last second of the year 9999, MariaDB's last. */
    public static final Instant LATEST = Instant.parse("9999-12-31T23:59:59Z");

    private TimeLimits() {}

    /**
     * Checks a duration that Errand measures on the database's clock: an age, a delay, a timeout.
     *
     * @param what how to call it in the message, such as {@code olderThan}
     * @param value the duration
     * @return the duration
     * @throws IllegalArgumentException if it is null, negative, or longer than {@link #MAX_DURATION}
     */
    public static Duration requireDuration(String what, Duration value) {
        if (value == null || value.isNegative() || value.compareTo(MAX_DURATION) > 0) {
            throw new IllegalArgumentException(what + " must be zero or more and at most " + MAX_DURATION.toDays()
                    + " days (100 years), the longest span Errand measures on the database's clock, got " + value);
        }
        return value;
    }

    /**
     * Checks an instant that Errand stores or compares with stored times.
     *
     * @param what how to call it in the message, such as {@code before}
     * @param value the instant
     * @return the instant
     * @throws IllegalArgumentException if it is null, before {@link #EARLIEST} or after {@link #LATEST}
     */
    public static Instant requireInstant(String what, Instant value) {
        if (value == null || value.isBefore(EARLIEST) || value.isAfter(LATEST)) {
            throw new IllegalArgumentException(what + " must be between " + EARLIEST + " and " + LATEST
                    + ", the range every supported database stores, got " + value);
        }
        return value;
    }

    /**
     * A duration in nanoseconds for a wait in this JVM, saturating at {@link Long#MAX_VALUE} (about 292 years)
     * instead of throwing: {@code ChronoUnit.FOREVER.getDuration()} then means as long as the JVM runs.
     *
     * @param value a duration of zero or more
     * @return its nanoseconds, at most {@link Long#MAX_VALUE}
     */
    public static long nanosOf(Duration value) {
        try {
            return value.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }
}
