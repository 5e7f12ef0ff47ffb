package dev.errand.config;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * One setting of an Errand node: its name, its default and the range it accepts. The builder checks
 * its arguments against these, and the Spring Boot starter's {@code errand.*} properties read their
 * defaults, ranges and messages from the same objects, so the two cannot drift apart.
 *
 * @param <T> the value type: {@link Integer} or {@link Duration}
 */
public final class Setting<T extends Comparable<? super T>> {

    private final String name;
    private final Class<T> type;
    private final String property;
    private final T defaultValue;
    private final T min;
    private final T max;
    private final String description;

    private Setting(String name, Class<T> type, T defaultValue, T min, T max, String description) {
        this.name = name;
        this.type = type;
        this.property = kebab(name);
        this.defaultValue = defaultValue;
        this.min = Objects.requireNonNull(min);
        this.max = Objects.requireNonNull(max);
        this.description = description;
    }

    /** An integer setting. */
    public static Setting<Integer> ofInt(String name, Integer defaultValue, int min, int max, String description) {
        return new Setting<>(name, Integer.class, defaultValue, min, max, description);
    }

    /** A duration setting. */
    public static Setting<Duration> ofDuration(
            String name, Duration defaultValue, Duration min, Duration max, String description) {
        return new Setting<>(name, Duration.class, defaultValue, min, max, description);
    }

    /** The name as the builder spells it, such as {@code pollInterval}. */
    public String name() {
        return name;
    }

    /** The type of its values: {@link Integer} or {@link Duration}. */
    public Class<T> type() {
        return type;
    }

    /** The property name below {@code errand.}, such as {@code poll-interval}. */
    public String property() {
        return property;
    }

    /** The default, or {@code null} where unset is the default (such as a retention that is off). */
    public T defaultValue() {
        return defaultValue;
    }

    /** The smallest value accepted. */
    public T min() {
        return min;
    }

    /** The largest value accepted. */
    public T max() {
        return max;
    }

    /** What the setting does, for documentation and configuration metadata. */
    public String description() {
        return description;
    }

    /**
     * Checks a value, for the builder.
     *
     * @return the value
     * @throws IllegalArgumentException naming the setting and its range, if the value is null or outside it
     */
    public T require(T value) {
        return require(name, value);
    }

    /**
     * Checks a value under another label, such as {@code errand.queues.mail.concurrency}.
     *
     * @throws IllegalArgumentException naming {@code label} and the range, if the value is null or outside it
     */
    public T require(String label, T value) {
        Optional<String> problem = problem(label, value);
        if (problem.isPresent()) {
            throw new IllegalArgumentException(problem.get());
        }
        return value;
    }

    /** What is wrong with a value, as a message that names {@code label} and the range; empty if it fits. */
    public Optional<String> problem(String label, T value) {
        if (value == null || value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            return Optional.of(label + " must be between " + text(min) + " and " + text(max) + ", got "
                    + (value == null ? "nothing" : text(value)));
        }
        return Optional.empty();
    }

    /** A value as people write it: {@code 500ms}, {@code 30s}, {@code 2h}, {@code 3650d}, or a number. */
    public static String text(Object value) {
        if (!(value instanceof Duration duration)) {
            return String.valueOf(value);
        }
        if (duration.isZero()) {
            return "0s";
        }
        long millis;
        try {
            millis = duration.toMillis();
        } catch (ArithmeticException beyondMillis) {
            // Past about 292 million years, such as ChronoUnit.FOREVER: no unit but the ISO form fits.
            return duration.toString();
        }
        if (!duration.equals(Duration.ofMillis(millis))) {
            return duration.toString();
        }
        long[] sizes = {86_400_000L, 3_600_000L, 60_000L, 1_000L};
        String[] units = {"d", "h", "m", "s"};
        for (int i = 0; i < sizes.length; i++) {
            if (millis % sizes[i] == 0) {
                return millis / sizes[i] + units[i];
            }
        }
        return millis + "ms";
    }

    @Override
    public String toString() {
        return name + " (" + text(min) + " to " + text(max) + ", "
                + (defaultValue == null ? "no default" : "default " + text(defaultValue)) + ")";
    }

    private static String kebab(String camel) {
        StringBuilder kebab = new StringBuilder();
        for (char c : camel.toCharArray()) {
            if (Character.isUpperCase(c)) {
                kebab.append('-').append(Character.toLowerCase(c));
            } else {
                kebab.append(c);
            }
        }
        return kebab.toString();
    }
}
