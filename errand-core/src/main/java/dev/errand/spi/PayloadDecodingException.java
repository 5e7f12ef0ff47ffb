package dev.errand.spi;

/** A stored payload that does not decode into its kind's payload type. Retrying cannot fix it. */
public final class PayloadDecodingException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception. */
    public PayloadDecodingException(String message, Throwable cause) {
        super(message, cause);
    }
}
