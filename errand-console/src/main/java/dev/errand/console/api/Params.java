package dev.errand.console.api;

import dev.errand.config.TimeLimits;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import org.springframework.web.servlet.function.ServerRequest;
import tools.jackson.databind.JsonNode;

/** Reads and checks the console API's parameters; every bad value is a 400 whose message says what is accepted. */
final class Params {

    /** The longest text the API accepts in a filter or a name. */
    static final int MAX_TEXT = 1_000;

    private Params() {}

    /** A positive numeric id from the path. */
    static long id(ServerRequest request, String what) {
        return positiveLong(request.pathVariable("id"), what);
    }

    static long positiveLong(String text, String what) {
        try {
            long value = Long.parseLong(text);
            if (value > 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw ApiException.badRequest(what + " must be a positive whole number, got '" + cut(text) + "'");
    }

    /** An optional query parameter, null when absent or empty. */
    static String text(ServerRequest request, String name) {
        Optional<String> value = request.param(name);
        if (value.isEmpty() || value.get().isEmpty()) {
            return null;
        }
        if (value.get().length() > MAX_TEXT) {
            throw ApiException.badRequest(name + " must be at most " + MAX_TEXT + " characters");
        }
        return value.get();
    }

    /** An optional whole-number query parameter in {@code [min, max]}. */
    static int integer(ServerRequest request, String name, int fallback, int min, int max) {
        String text = text(request, name);
        if (text == null) {
            return fallback;
        }
        try {
            int value = Integer.parseInt(text);
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw ApiException.badRequest(
                name + " must be a whole number from " + min + " to " + max + ", got '" + cut(text) + "'");
    }

    /** An optional enum query parameter, matched without regard to case and with '-' for '_'. */
    static <E extends Enum<E>> E enumeration(ServerRequest request, String name, Class<E> type) {
        String text = text(request, name);
        return text == null ? null : enumeration(text, name, type);
    }

    static <E extends Enum<E>> E enumeration(String text, String name, Class<E> type) {
        String wanted = text.trim().replace('-', '_').toUpperCase(Locale.ROOT);
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equals(wanted)) {
                return constant;
            }
        }
        StringBuilder accepted = new StringBuilder();
        for (E constant : type.getEnumConstants()) {
            accepted.append(accepted.length() == 0 ? "" : ", ")
                    .append(constant.name().toLowerCase(Locale.ROOT).replace('_', '-'));
        }
        throw ApiException.badRequest(name + " must be one of " + accepted + ", got '" + cut(text) + "'");
    }

    /** An optional ISO-8601 instant query parameter, such as {@code 2026-01-31T12:00:00Z}. */
    static Instant instant(ServerRequest request, String name) {
        String text = text(request, name);
        return text == null ? null : instant(text, name);
    }

    static Instant instant(String text, String name) {
        try {
            return Instant.parse(text.trim());
        } catch (DateTimeParseException e) {
            throw ApiException.badRequest(
                    name + " must be an ISO-8601 instant such as 2026-01-31T12:00:00Z, got '" + cut(text) + "'");
        }
    }

    /** A required text field of a JSON body. */
    static String field(JsonNode body, String name) {
        String value = optionalField(body, name);
        if (value == null) {
            throw ApiException.badRequest("The body needs the text field \"" + name + "\"");
        }
        return value;
    }

    /** An optional text field of a JSON body; null when absent, null or empty. */
    static String optionalField(JsonNode body, String name) {
        JsonNode node = body.get(name);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isString()) {
            throw ApiException.badRequest("The body field \"" + name + "\" must be text");
        }
        String value = node.asString();
        if (value.length() > MAX_TEXT) {
            throw ApiException.badRequest(
                    "The body field \"" + name + "\" must be at most " + MAX_TEXT + " characters");
        }
        return value.isEmpty() ? null : value;
    }

    /** An optional whole-number field of a JSON body. */
    static Integer optionalInt(JsonNode body, String name) {
        JsonNode node = body.get(name);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isInt()) {
            throw ApiException.badRequest("The body field \"" + name + "\" must be a whole number");
        }
        return node.asInt();
    }

    /**
     * A search window: an ISO-8601 duration such as {@code PT6H}, or {@code all} for none (null).
     *
     * @throws ApiException (400) for anything else, or a duration not positive or over 36,500 days
     */
    static Duration window(String text) {
        if (text.equals("all")) {
            return null;
        }
        try {
            Duration within = Duration.parse(text);
            if (within.isNegative() || within.isZero() || within.compareTo(TimeLimits.MAX_DURATION) > 0) {
                throw ApiException.badRequest("within must be a positive ISO-8601 duration of at most 36,500 days,"
                        + " such as PT1H or P7D, or all; got " + cut(text));
            }
            return within;
        } catch (DateTimeParseException e) {
            throw ApiException.badRequest(
                    "within must be an ISO-8601 duration such as PT1H or P7D, or all; got " + cut(text));
        }
    }

    /** A value quoted in a message: at most 60 characters, with its length when cut. */
    static String cut(String text) {
        if (text == null) {
            return "null";
        }
        return text.length() <= 60 ? text : text.substring(0, 60) + "... (" + text.length() + " characters)";
    }
}
