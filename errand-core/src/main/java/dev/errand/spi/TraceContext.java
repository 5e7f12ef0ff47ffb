package dev.errand.spi;

import java.util.regex.Pattern;

/**
 * The W3C trace context that a task carries from the code that enqueued it to its attempts: the
 * {@code traceparent} and {@code tracestate} values of the <a href="https://www.w3.org/TR/trace-context/">Trace
 * Context</a> recommendation, stored on the task's row.
 *
 * @param traceparent the {@code traceparent} value ({@code 00-<32 hex>-<16 hex>-<2 hex>}), or {@code null} for none
 * @param tracestate the {@code tracestate} value, or {@code null}; ignored without a {@code traceparent}
 */
public record TraceContext(String traceparent, String tracestate) {

    /** No trace context: the task's attempts start traces of their own. */
    public static final TraceContext NONE = new TraceContext(null, null);

    /** The longest {@code tracestate} stored; the recommendation allows 32 members of at most 256 characters. */
    public static final int MAX_TRACESTATE_LENGTH = 512;

    private static final Pattern TRACEPARENT = Pattern.compile("[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}");

    /**
     * Requires a well-formed {@code traceparent} (or none) and a {@code tracestate} no longer than
     * {@value #MAX_TRACESTATE_LENGTH} characters.
     */
    public TraceContext {
        if (traceparent != null && !TRACEPARENT.matcher(traceparent).matches()) {
            throw new IllegalArgumentException(
                    "traceparent '" + traceparent + "' is not a W3C traceparent"
                            + " (00-<32 lowercase hex>-<16 lowercase hex>-<2 hex>); use TraceContext.of(...) to drop a bad one");
        }
        if (tracestate != null && tracestate.length() > MAX_TRACESTATE_LENGTH) {
            throw new IllegalArgumentException("tracestate is " + tracestate.length() + " characters long; at most "
                    + MAX_TRACESTATE_LENGTH + " are stored. Use TraceContext.of(...) to drop an overlong one");
        }
        if (traceparent == null) {
            tracestate = null;
        }
    }

    /**
     * The context of these header values as a propagator wrote them, dropping what cannot be stored: a malformed
     * {@code traceparent} yields {@link #NONE}, and an overlong or blank {@code tracestate} is left out.
     */
    public static TraceContext of(String traceparent, String tracestate) {
        if (traceparent == null || !TRACEPARENT.matcher(traceparent).matches()) {
            return NONE;
        }
        boolean keepState = tracestate != null && !tracestate.isBlank() && tracestate.length() <= MAX_TRACESTATE_LENGTH;
        return new TraceContext(traceparent, keepState ? tracestate : null);
    }

    /** Whether there is a context to carry. */
    public boolean isPresent() {
        return traceparent != null;
    }

    /** The trace id (32 hex digits) of the {@code traceparent}, or {@code null} for none. */
    public String traceId() {
        return traceparent == null ? null : traceparent.substring(3, 35);
    }
}
