package dev.errand.spring.autoconfigure;

import java.time.Duration;

/** Writes durations the way {@code errand.*} properties are written: {@code 10ms}, {@code 30s}, {@code 1h}. */
final class DurationText {

    private DurationText() {}

    static String of(Duration duration) {
        if (duration == null) {
            return "null";
        }
        long millis = duration.toMillis();
        if (!duration.equals(Duration.ofMillis(millis))) {
            return duration.toString();
        }
        if (millis != 0 && millis % 86_400_000L == 0) {
            return millis / 86_400_000L + "d";
        }
        if (millis != 0 && millis % 3_600_000L == 0) {
            return millis / 3_600_000L + "h";
        }
        if (millis != 0 && millis % 60_000L == 0) {
            return millis / 60_000L + "m";
        }
        if (millis % 1000L == 0) {
            return millis / 1000L + "s";
        }
        return millis + "ms";
    }
}
