package dev.errand.testing;

import dev.errand.config.Setting;
import dev.errand.config.TimeLimits;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The boundary values of the argument types Errand's API takes, the rules that say which of them a method
 * accepts, and a runner for tables of such methods. Every call of a row with every value of its type must
 * either return, with the documented effect, or throw an {@link IllegalArgumentException} with a short
 * message that says what is accepted: never a database error, an overflow, another exception, a message
 * that repeats a 10 MB argument, or a row lost. The runner collects every breach of a table and fails once,
 * listing them all.
 */
public final class Boundaries {

    /** The longest message a refusal may have: a few hundred characters, whatever the input. */
    public static final int MAX_MESSAGE = 600;

    /** The longest {@link Duration}. */
    public static final Duration FOREVER = ChronoUnit.FOREVER.getDuration();

    private static final int TEN_MB = 10 * 1024 * 1024;

    /** 10 MB with a leading space: refused for its whitespace, and its message must not repeat it. */
    private static final String HUGE_PADDED = " " + "x".repeat(TEN_MB - 1);

    /** 10 MB of letters. */
    private static final String HUGE = "y".repeat(TEN_MB);

    private Boundaries() {}

    /** A value with a label for the report. */
    public record Value<T>(String label, T value) {

        @Override
        public String toString() {
            return label;
        }
    }

    /** What a call must do with one value. */
    public record Expect(boolean accepted, String hint) {

        /** The call returns. */
        public static final Expect RETURNS = new Expect(true, null);

        /** The call throws an {@link IllegalArgumentException} whose message contains {@code hint} (if set). */
        public static Expect refused(String hint) {
            return new Expect(false, hint);
        }
    }

    /** Which values of a type a method accepts. */
    @FunctionalInterface
    public interface Rule<T> {

        /** What a call with {@code value} must do. */
        Expect expect(T value);
    }

    /** A call under test. */
    @FunctionalInterface
    public interface Call<T> {

        /** Calls the method with the value; returns its result. */
        Object call(T value) throws Exception;
    }

    /** The documented effect of an accepted call. */
    @FunctionalInterface
    public interface Check<T> {

        /** Asserts the effect of the call with {@code value} that returned {@code result}. */
        void check(T value, Object result) throws Exception;
    }

    /**
     * One row of a table: a public method, tried with every value of its argument's type.
     *
     * @param method how the report names the call
     * @param values the values to try
     * @param rule which values it accepts
     * @param call the call
     * @param check the effect of an accepted call
     */
    public record Row<T>(String method, List<Value<T>> values, Rule<T> rule, Call<T> call, Check<T> check) {

        /** A row that only needs an accepted call to return. */
        public static <T> Row<T> of(String method, List<Value<T>> values, Rule<T> rule, Call<T> call) {
            return new Row<>(method, values, rule, call, (value, result) -> {});
        }

        /** The same row with the documented effect of an accepted call. */
        public Row<T> then(Check<T> effect) {
            return new Row<>(method, values, rule, call, effect);
        }
    }

    // ---- the values ----

    /** Durations: null, negative, zero, tiny, the largest accepted and just past it, centuries, the largest. */
    public static List<Value<Duration>> durations() {
        return List.of(
                new Value<>("null", null),
                new Value<>("Duration.ofSeconds(Long.MIN_VALUE)", Duration.ofSeconds(Long.MIN_VALUE)),
                new Value<>("-1s", Duration.ofSeconds(-1)),
                new Value<>("-1ns", Duration.ofNanos(-1)),
                new Value<>("0", Duration.ZERO),
                new Value<>("1ns", Duration.ofNanos(1)),
                new Value<>("1ms", Duration.ofMillis(1)),
                new Value<>("1s", Duration.ofSeconds(1)),
                new Value<>("1h", Duration.ofHours(1)),
                new Value<>("36500d", TimeLimits.MAX_DURATION),
                new Value<>("36500d+1ns", TimeLimits.MAX_DURATION.plusNanos(1)),
                new Value<>("300 years", Duration.ofDays(365L * 300)),
                new Value<>("1000 years", Duration.ofDays(365L * 1_000)),
                new Value<>("100000 years", Duration.ofDays(365L * 100_000)),
                new Value<>("Duration.ofSeconds(Long.MAX_VALUE)", Duration.ofSeconds(Long.MAX_VALUE)),
                new Value<>("FOREVER", FOREVER));
    }

    /** Instants: null, the extremes, just outside and inside what every database stores, now. */
    public static List<Value<Instant>> instants() {
        return List.of(
                new Value<>("null", null),
                new Value<>("Instant.MIN", Instant.MIN),
                new Value<>("0999-12-31T23:59:59.999999999Z", TimeLimits.EARLIEST.minusNanos(1)),
                new Value<>("1000-01-01T00:00:00Z", TimeLimits.EARLIEST),
                new Value<>("EPOCH", Instant.EPOCH),
                new Value<>("now", Instant.now()),
                new Value<>("now+1h", Instant.now().plusSeconds(3600)),
                new Value<>("9999-12-31T23:59:59Z", TimeLimits.LATEST),
                new Value<>("9999-12-31T23:59:59.000000001Z", TimeLimits.LATEST.plusNanos(1)),
                new Value<>("+10000-01-01T00:00:00Z", Instant.parse("+10000-01-01T00:00:00Z")),
                new Value<>("Instant.MAX", Instant.MAX));
    }

    /**
     * Strings: null, empty, blank, padded, control characters, non-ASCII letters, an emoji, an unpaired
     * surrogate, the longest a column takes and one more, 10,000 characters, and 10 MB (with and without a
     * leading space).
     *
     * @param maxLength the length a name of this kind may have at most
     */
    public static List<Value<String>> strings(int maxLength) {
        List<Value<String>> values = new ArrayList<>(List.of(
                new Value<>("null", null),
                new Value<>("\"\"", ""),
                new Value<>("\" \"", " "),
                new Value<>("\"\\t\"", "\t"),
                new Value<>("\" lead\"", " lead"),
                new Value<>("\"trail \"", "trail "),
                new Value<>("\"\\u0000\"", "\u0000"),
                new Value<>("\"a\\u0000b\"", "a\u0000b"),
                new Value<>("\"a\\nb\"", "a\nb"),
                new Value<>("\"\\u001b[31mred\"", "\u001b[31mred"),
                new Value<>("\"\\u007f\"", "del\u007f"),
                new Value<>("\"ok\"", "ok"),
                new Value<>("\"Grüße-日本語\"", "Grüße-日本語"),
                new Value<>("\"emoji \\uD83D\\uDE00\"", "emoji-\uD83D\uDE00"),
                new Value<>("\"unpaired \\uD800\"", "unpaired-\uD800"),
                new Value<>("\"\\uDC00 first\"", "\uDC00-first")));
        values.add(new Value<>(maxLength + " characters", "m".repeat(maxLength)));
        values.add(new Value<>((maxLength + 1) + " characters", "n".repeat(maxLength + 1)));
        if (maxLength < 10_000) {
            values.add(new Value<>("10,000 characters", "t".repeat(10_000)));
        }
        values.add(new Value<>("10 MB", HUGE));
        values.add(new Value<>("10 MB with a leading space", HUGE_PADDED));
        return values;
    }

    /** Longs: the extremes, zero and one. */
    public static List<Value<Long>> longs() {
        return List.of(
                new Value<>("Long.MIN_VALUE", Long.MIN_VALUE),
                new Value<>("-1", -1L),
                new Value<>("0", 0L),
                new Value<>("1", 1L),
                new Value<>("Long.MAX_VALUE", Long.MAX_VALUE));
    }

    /** Ints: the extremes, zero, one and the ends of a range. */
    public static List<Value<Integer>> ints(int min, int max) {
        List<Integer> candidates = List.of(Integer.MIN_VALUE, -1, 0, 1, min - 1, min, max, max + 1, Integer.MAX_VALUE);
        List<Value<Integer>> values = new ArrayList<>();
        for (Integer candidate : candidates.stream().distinct().sorted().toList()) {
            values.add(new Value<>(String.valueOf(candidate), candidate));
        }
        return values;
    }

    // ---- the rules ----

    /** A span measured on the database's clock: zero to 36,500 days ({@link TimeLimits#requireDuration}). */
    public static Rule<Duration> span() {
        return value -> {
            if (value == null || value.isNegative()) {
                return Expect.refused("zero or more");
            }
            return value.compareTo(TimeLimits.MAX_DURATION) > 0 ? Expect.refused("36500 days") : Expect.RETURNS;
        };
    }

    /** A span that must also be more than zero. */
    public static Rule<Duration> positiveSpan() {
        return value ->
                value == null || value.isNegative() || value.isZero() ? Expect.refused(null) : span().expect(value);
    }

    /** Null accepted too (it means something of its own, such as every node); the rest by {@code rule}. */
    public static <T> Rule<T> nullOr(Rule<T> rule) {
        return value -> value == null ? Expect.RETURNS : rule.expect(value);
    }

    /** A collection that must not be null nor hold null; empty too when {@code emptyAccepted}. */
    public static <T extends java.util.Collection<?>> Rule<T> noNulls(boolean emptyAccepted) {
        return value -> value == null || value.stream().anyMatch(Objects::isNull) || (!emptyAccepted && value.isEmpty())
                ? Expect.refused(null)
                : Expect.RETURNS;
    }

    /** A wait in this JVM: zero or more, however long. */
    public static Rule<Duration> jvmWait() {
        return value -> value == null || value.isNegative() ? Expect.refused("zero or more") : Expect.RETURNS;
    }

    /** A node setting, within its range. */
    public static Rule<Duration> setting(Setting<Duration> setting) {
        return value -> value == null || value.compareTo(setting.min()) < 0 || value.compareTo(setting.max()) > 0
                ? Expect.refused("between")
                : Expect.RETURNS;
    }

    /** An instant every database stores; null too when {@code nullable}. */
    public static Rule<Instant> storable(boolean nullable) {
        return value -> {
            if (value == null) {
                return nullable ? Expect.RETURNS : Expect.refused(null);
            }
            return value.isBefore(TimeLimits.EARLIEST) || value.isAfter(TimeLimits.LATEST)
                    ? Expect.refused("1000-01-01")
                    : Expect.RETURNS;
        };
    }

    /** A future instant that every database stores: a deadline. */
    public static Rule<Instant> deadline() {
        return value -> {
            if (value == null || !value.isAfter(Instant.now())) {
                return Expect.refused(null);
            }
            return value.isAfter(TimeLimits.LATEST) ? Expect.refused("10000") : Expect.RETURNS;
        };
    }

    /**
     * A name Errand stores ({@link dev.errand.config.Names#require}): 1 to {@code maxLength} characters, not
     * blank, not padded, no control character, no unpaired surrogate.
     */
    public static Rule<String> name(int maxLength) {
        return value -> {
            if (value == null || value.isBlank()) {
                return Expect.refused("non-blank");
            }
            if (!value.strip().equals(value)) {
                return Expect.refused("whitespace");
            }
            if (value.length() > maxLength) {
                return Expect.refused("at most " + maxLength);
            }
            for (int i = 0; i < value.length(); i++) {
                if (Character.isISOControl(value.charAt(i))) {
                    return Expect.refused("control characters");
                }
            }
            return hasUnpairedSurrogate(value) ? Expect.refused("surrogate") : Expect.RETURNS;
        };
    }

    /** A positive id. */
    public static Rule<Long> positive() {
        return value -> value < 1 ? Expect.refused("positive") : Expect.RETURNS;
    }

    /** An int in {@code [min, max]}. */
    public static Rule<Integer> within(int min, int max) {
        return value -> {
            if (value < min) {
                return Expect.refused(null);
            }
            return value > max ? Expect.refused(String.valueOf(max)) : Expect.RETURNS;
        };
    }

    /** Whether the text holds half of a surrogate pair alone. */
    public static boolean hasUnpairedSurrogate(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isHighSurrogate(c)
                    && i + 1 < value.length()
                    && Character.isLowSurrogate(value.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return true;
            }
        }
        return false;
    }

    // ---- the runner ----

    /**
     * Runs every row with every value; fails once with every breach.
     *
     * @throws AssertionError listing each call that broke the contract
     */
    public static void run(List<Row<?>> rows) {
        List<String> breaches = new ArrayList<>();
        int calls = 0;
        for (Row<?> row : rows) {
            calls += runRow(row, breaches);
        }
        if (!breaches.isEmpty()) {
            String report =
                    breaches.size() + " of " + calls + " calls broke the contract:\n  " + String.join("\n  ", breaches);
            // Whole on the test's output too: the build's summary of a failure shows only its first lines.
            System.out.println("BOUNDARY BREACHES " + report);
            throw new AssertionError(report);
        }
    }

    private static <T> int runRow(Row<T> row, List<String> breaches) {
        for (Value<T> value : row.values()) {
            String what = row.method() + "(" + value.label() + ")";
            Expect expect = row.rule().expect(value.value());
            Object result;
            try {
                result = row.call().call(value.value());
            } catch (IllegalArgumentException e) {
                String message = Objects.toString(e.getMessage(), "");
                if (expect.accepted()) {
                    breaches.add(what + ": refused but should be accepted: " + cut(message));
                } else if (message.length() > MAX_MESSAGE) {
                    breaches.add(what + ": a message of " + message.length() + " characters: " + cut(message));
                } else if (expect.hint() != null && !message.contains(expect.hint())) {
                    breaches.add(what + ": the message does not say \"" + expect.hint() + "\": " + cut(message));
                } else if (message.chars().anyMatch(c -> c == 0 || c == '\n' || c == 27)) {
                    breaches.add(what + ": the message repeats control characters: " + cut(message));
                }
                continue;
            } catch (Throwable e) {
                breaches.add(what + ": threw " + e.getClass().getName() + ": " + cut(String.valueOf(e.getMessage())));
                continue;
            }
            if (!expect.accepted()) {
                breaches.add(what + ": accepted (returned " + cut(String.valueOf(result)) + ") but should be refused"
                        + (expect.hint() == null ? "" : " saying \"" + expect.hint() + "\""));
                continue;
            }
            try {
                row.check().check(value.value(), result);
            } catch (Throwable e) {
                breaches.add(what + ": accepted, but " + cut(String.valueOf(e)));
            }
        }
        return row.values().size();
    }

    /**
     * The start of a text for the report, with control characters and surrogates escaped: an unpaired surrogate
     * cut the build's output short.
     */
    private static String cut(String text) {
        String start = text.length() <= 300 ? text : text.substring(0, 300);
        StringBuilder printable = new StringBuilder();
        for (char c : start.toCharArray()) {
            boolean unprintable = Character.isISOControl(c) || Character.isSurrogate(c);
            printable.append(unprintable ? String.format("\\u%04X", (int) c) : String.valueOf(c));
        }
        return text.length() <= 300 ? printable.toString() : printable + "... (" + text.length() + " characters)";
    }
}
