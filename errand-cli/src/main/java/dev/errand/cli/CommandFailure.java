package dev.errand.cli;

/**
 * A command could not do what it was asked, for a reason its message says in full (no stack trace is useful):
 * the database cannot be reached, a task does not exist. The command exits with 1.
 */
final class CommandFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    CommandFailure(String message) {
        super(message);
    }

    CommandFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
