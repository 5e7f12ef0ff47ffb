package dev.errand.cli;

import dev.errand.config.Names;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** A duration on the command line: {@code 90s}, {@code 5m}, {@code 2h}, {@code 1d}, or ISO-8601 ({@code PT5M}). */
final class DurationConverter implements ITypeConverter<Duration> {

    private static final Pattern SHORT = Pattern.compile("(\\d{1,9})(s|m|h|d)");

    @Override
    public Duration convert(String value) {
        String text = value.strip().toLowerCase(Locale.ROOT);
        Matcher match = SHORT.matcher(text);
        if (match.matches()) {
            long amount = Long.parseLong(match.group(1));
            return switch (match.group(2)) {
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                case "h" -> Duration.ofHours(amount);
                default -> Duration.ofDays(amount);
            };
        }
        try {
            return Duration.parse(value.strip());
        } catch (DateTimeParseException e) {
            throw new TypeConversionException(
                    "expected a duration such as 90s, 5m, 2h, 1d or PT5M, got " + Names.echo(value));
        }
    }
}
