package dev.errand.jpa;

/** A database failure in an entity queue helper; the cause says what the database reported. */
public final class EntityQueueException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception. */
    public EntityQueueException(String message, Throwable cause) {
        super(message + ": " + cause.getMessage(), cause);
    }
}
