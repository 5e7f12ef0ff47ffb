package dev.errand.retry;

import java.time.Duration;

/** Argument checks shared by the policies. */
final class Durations {

    private Durations() {}

    static Duration requireNotNegative(Duration value, String what) {
        if (value == null || value.isNegative()) {
            throw new IllegalArgumentException(what + " must be zero or more, got " + value);
        }
        return value;
    }

    static Duration requirePositive(Duration value, String what) {
        if (value == null || value.isNegative() || value.isZero()) {
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
