package dev.errand.retry;

import java.time.Duration;

/**
 * The bounds of every delay Errand stores: a retry delay, a request's delay, a retry-later delay. A
 * delay is added to the database's time inside SQL, so it must fit every database's arithmetic: H2
 * overflows past about 292 years and MariaDB stops at the year 9999.
 */
public final class Delays {

    /** The longest delay Errand accepts anywhere: 36,500 days (100 years). */
    public static final Duration MAX = Duration.ofDays(36_500);

    private Delays() {}

    /**
     * Checks a delay.
     *
     * @param what how to call it in the message, such as {@code delay}
     * @return the delay
     * @throws IllegalArgumentException if it is null, negative, or longer than {@link #MAX}
     */
    public static Duration require(String what, Duration value) {
        if (value == null || value.isNegative()) {
            throw new IllegalArgumentException(what + " must be zero or more, got " + value);
        }
        if (value.compareTo(MAX) > 0) {
            throw new IllegalArgumentException(what + " must be at most " + MAX.toDays() + " days (100 years), got "
                    + value + "; for a task that should not run, do not enqueue it, or cancel it");
        }
        return value;
    }

    static Duration requirePositive(Duration value, String what) {
        require(what, value);
        if (value.isZero()) {
            throw new IllegalArgumentException(what + " must be more than zero, got " + value);
        }
        return value;
    }

    static void requireAttempt(int failedAttempt) {
        if (failedAttempt < 1) {
            throw new IllegalArgumentException("failedAttempt starts at 1, got " + failedAttempt);
        }
    }
}
