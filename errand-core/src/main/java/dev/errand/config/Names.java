package dev.errand.config;

/**
 * Checks the names Errand stores and compares: kinds, queues, node ids, unique keys. They must not be
 * blank, must not start or end with whitespace (MariaDB ignores trailing spaces when it compares), must
 * fit their column, and must hold no control character: PostgreSQL cannot store NUL, and a name with
 * a line break or escape sequence garbles logs.
 */
public final class Names {

    /** How many characters of a caller's value an error message repeats. */
    public static final int ECHO_LENGTH = 60;

    private Names() {}

    /**
     * Checks a name.
     *
     * @param what how to call it in the message, such as {@code Task kind}
     * @param value the name
     * @param maxLength the longest the column stores
     * @return the name
     * @throws IllegalArgumentException saying what is wrong and what is accepted
     */
    public static String require(String what, String value, int maxLength) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(
                    what + " must be 1 to " + maxLength + " non-blank characters, got " + echo(value));
        }
        if (!value.strip().equals(value)) {
            throw new IllegalArgumentException(
                    what + " must not start or end with whitespace, got " + echo(value) + "; strip it first");
        }
        if (value.length() > maxLength) {
            throw new IllegalArgumentException(
                    what + " must be at most " + maxLength + " characters, got " + value.length());
        }
        for (int i = 0; i < value.length(); i++) {
            if (Character.isISOControl(value.charAt(i))) {
                throw new IllegalArgumentException(what + " must not contain control characters such as NUL or"
                        + " line breaks; found U+" + String.format("%04X", (int) value.charAt(i)) + " at position " + i
                        + " of " + echo(value));
            }
        }
        return value;
    }

    /**
     * Quotes a caller's value for an error message, cut to its first {@value #ECHO_LENGTH} characters with
     * its length, so that a huge or garbled argument cannot make a huge or garbled message.
     *
     * @param value the value the caller gave, may be null
     * @return {@code null}, the quoted value, or the quoted start of the value followed by its length
     */
    public static String echo(String value) {
        if (value == null) {
            return "null";
        }
        if (value.length() <= ECHO_LENGTH) {
            return "\"" + printable(value) + "\"";
        }
        return "\"" + printable(value.substring(0, ECHO_LENGTH)) + "...\" (" + value.length() + " characters)";
    }

    private static String printable(String value) {
        StringBuilder text = new StringBuilder();
        for (char c : value.toCharArray()) {
            text.append(Character.isISOControl(c) ? String.format("\\u%04X", (int) c) : String.valueOf(c));
        }
        return text.toString();
    }
}
