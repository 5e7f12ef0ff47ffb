package dev.errand.jpa.internal;

import dev.errand.jpa.state.QueueState;

/** Error texts as an item's {@code last_error} stores them: never failing, storable, and short enough. */
public final class ErrorText {

    private ErrorText() {}

    /** {@code ClassName: message} of a throwable, even one whose {@code getMessage()} throws. */
    public static String of(Throwable error) {
        String message;
        try {
            message = error.getMessage();
        } catch (RuntimeException | StackOverflowError broken) {
            message = "(its message could not be read: " + broken.getClass().getName() + ")";
        }
        return message == null ? error.getClass().getName() : error.getClass().getName() + ": " + message;
    }

    /**
     * A text the column can store on every database: NUL (which PostgreSQL refuses) replaced, and cut to
     * {@link QueueState#ERROR_LENGTH} characters.
     */
    public static String storable(String text) {
        String clean = text.replace('\u0000', '\uFFFD');
        if (clean.length() <= QueueState.ERROR_LENGTH) {
            return clean;
        }
        int end = QueueState.ERROR_LENGTH - 1;
        if (Character.isHighSurrogate(clean.charAt(end - 1))) {
            end--;
        }
        return clean.substring(0, end) + "…";
    }
}
