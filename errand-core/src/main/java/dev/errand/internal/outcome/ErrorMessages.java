package dev.errand.internal.outcome;

/** Reads what an exception says without ever failing: a message may be hostile. */
public final class ErrorMessages {

    private ErrorMessages() {}

    /**
     * The exception's message, or {@code null}. An exception whose {@code getMessage()} throws gets a
     * text that says so instead: recording an error must never fail because of the error.
     */
    public static String of(Throwable error) {
        try {
            return error.getMessage();
        } catch (RuntimeException | StackOverflowError broken) {
            return "(the message of this " + error.getClass().getName() + " could not be read: "
                    + broken.getClass().getName() + ")";
        }
    }

    /** {@code ClassName: message}, or the class name alone. */
    public static String summary(Throwable error) {
        String message = of(error);
        return message == null ? error.getClass().getName() : error.getClass().getName() + ": " + message;
    }
}
