package dev.errand.task;

import java.time.Duration;

/**
 * The error recorded on an attempt that ran past its kind's {@linkplain TaskDefinition.Builder#executionTimeout
 * execution timeout}: the worker interrupted the handler, a transactional attempt rolled back, and the attempt
 * counts as failed.
 */
public final class ExecutionTimeoutException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient Duration timeout;

    /**
     * Creates the error.
     *
     * @param timeout the kind's execution timeout
     * @param cause how the handler stopped after it was interrupted, or {@code null} if it returned
     */
    public ExecutionTimeoutException(Duration timeout, Throwable cause) {
        super("The attempt ran longer than its execution timeout of " + timeout + " and was interrupted", cause);
        this.timeout = timeout;
    }

    /** The kind's execution timeout. */
    public Duration timeout() {
        return timeout;
    }
}
