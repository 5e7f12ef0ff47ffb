package dev.errand.config;

/**
 * Checks the names Errand stores and compares: kinds, queues, node ids, unique keys. They must not be
 * blank, must not start or end with whitespace (MariaDB ignores trailing spaces when it compares), must
 * fit their column, must hold no control character (PostgreSQL cannot store NUL, and a name with a line
 * break or escape sequence garbles logs) and no half of a surrogate pair alone (the drivers send it as
 * {@code ?}, so two different names would be stored as one).
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
            char c = value.charAt(i);
            if (Character.isISOControl(c)) {
                throw new IllegalArgumentException(what + " must not contain control characters such as NUL or"
                        + " line breaks; found U+" + String.format("%04X", (int) c) + " at position " + i
                        + " of " + echo(value));
            }
            if (Character.isHighSurrogate(c)
                    && i + 1 < value.length()
                    && Character.isLowSurrogate(value.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException(what + " must be valid Unicode text: found half of a surrogate"
                        + " pair alone, U+" + String.format("%04X", (int) c) + ", at position " + i + " of "
                        + echo(value));
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
        // Never cut a surrogate pair in two.
        int end = Character.isHighSurrogate(value.charAt(ECHO_LENGTH - 1)) ? ECHO_LENGTH - 1 : ECHO_LENGTH;
        return "\"" + printable(value.substring(0, end)) + "...\" (" + value.length() + " characters)";
    }

    /** Control characters and halves of surrogate pairs alone as Java escapes; the rest as it is. */
    private static String printable(String value) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean pair = Character.isHighSurrogate(c)
                    && i + 1 < value.length()
                    && Character.isLowSurrogate(value.charAt(i + 1));
            if (pair) {
                text.append(c).append(value.charAt(++i));
            } else if (Character.isISOControl(c) || Character.isSurrogate(c)) {
                text.append(String.format("\\u%04X", (int) c));
            } else {
                text.append(c);
            }
        }
        return text.toString();
    }
}
