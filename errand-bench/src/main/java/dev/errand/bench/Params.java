package dev.errand.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code key=value} parameters of a trial, as passed on a child JVM's command line. */
public final class Params {

    private final Map<String, String> values = new LinkedHashMap<>();

    /** Parses {@code key=value} arguments. */
    public static Params parse(String... args) {
        Params params = new Params();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("Expected key=value, got '" + arg + "'");
            }
            params.values.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        return params;
    }

    /** Sets a value; returns this. */
    public Params with(String key, Object value) {
        values.put(key, String.valueOf(value));
        return this;
    }

    /** A copy. */
    public Params copy() {
        Params copy = new Params();
        copy.values.putAll(values);
        return copy;
    }

    public String get(String key, String fallback) {
        return values.getOrDefault(key, fallback);
    }

    public String require(String key) {
        String value = values.get(key);
        if (value == null) {
            throw new IllegalArgumentException("Missing parameter " + key);
        }
        return value;
    }

    public int integer(String key, int fallback) {
        String value = values.get(key);
        return value == null ? fallback : Integer.parseInt(value.replace("_", ""));
    }

    public double decimal(String key, double fallback) {
        String value = values.get(key);
        return value == null ? fallback : Double.parseDouble(value);
    }

    /** As {@code key=value} arguments. */
    public List<String> toArgs() {
        return values.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .toList();
    }

    @Override
    public String toString() {
        return String.join(" ", toArgs());
    }
}
