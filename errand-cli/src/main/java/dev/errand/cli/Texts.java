package dev.errand.cli;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.regex.Pattern;

/** Text for a terminal: what came from the database is shown, never interpreted. */
final class Texts {

    /** C0 and C1 control characters and DEL: a stored text must not move the cursor or change colours. */
    private static final Pattern CONTROL = Pattern.compile("[\\x00-\\x1F\\x7F-\\x9F]");

    private Texts() {}

    /** The text on one line, each control character (line breaks included) shown as a space. */
    static String oneLine(String text) {
        return text == null ? "" : CONTROL.matcher(text).replaceAll(" ").strip();
    }

    /** The text on one line, cut to {@code width} characters with {@code ...} at the end. */
    static String cell(String text, int width) {
        String line = oneLine(text);
        return line.length() <= width ? line : line.substring(0, width - 3) + "...";
    }

    /** The text with its line breaks kept and every other control character shown as a space. */
    static String lines(String text) {
        return text == null
                ? ""
                : CONTROL.matcher(text.replace("\r\n", "\n"))
                        .replaceAll(m -> m.group().equals("\n") ? "\n" : " ");
    }

    /** An instant to the second, in UTC; {@code -} for none. */
    static String time(Instant instant) {
        return instant == null ? "-" : instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /** A duration as {@code 1h02m03s}, {@code 4.250s}; {@code -} for none. */
    static String duration(Duration duration) {
        if (duration == null) {
            return "-";
        }
        if (duration.compareTo(Duration.ofMinutes(1)) < 0) {
            return String.format(java.util.Locale.ROOT, "%.3fs", duration.toMillis() / 1000.0);
        }
        long seconds = duration.toSeconds();
        return (seconds >= 3600 ? seconds / 3600 + "h" : "")
                + String.format(java.util.Locale.ROOT, "%02dm%02ds", seconds / 60 % 60, seconds % 60);
    }
}
