package dev.errand.event;

import dev.errand.config.Names;
import dev.errand.retry.Delays;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A named event that a task waits for, with an optional deadline of its own. If the deadline passes
 * before the event is triggered, the task fails as expired, naming this condition.
 *
 * <pre>{@code
 * TaskRequest.builder(SEND_RECEIPT, sms)
 *         .condition(Condition.on("sms-delivered:" + sms.id()).timeout(Duration.ofHours(1)))
 *         .build();
 * }</pre>
 */
public final class Condition {

    /** The longest event name the schema stores. */
    public static final int MAX_EVENT_LENGTH = 255;

    private final String event;
    private final Instant deadline;
    private final Duration timeout;

    private Condition(String event, Instant deadline, Duration timeout) {
        this.event = event;
        this.deadline = deadline;
        this.timeout = timeout;
    }

    /**
     * A condition on {@code event}, with no deadline of its own.
     *
     * @throws IllegalArgumentException if the name is blank, padded with whitespace, longer than 255
     *     characters or holding a control character
     */
    public static Condition on(String event) {
        return new Condition(requireEvent(event), null, null);
    }

    /**
     * Checks an event name.
     *
     * @return the name
     * @throws IllegalArgumentException if it is blank, padded with whitespace, longer than 255 characters or
     *     holding a control character
     */
    public static String requireEvent(String event) {
        String name = Names.require("Event name", event, MAX_EVENT_LENGTH);
        if (name.startsWith(RESERVED_PREFIX)) {
            throw new IllegalArgumentException("Event name " + Names.echo(name) + " starts with '" + RESERVED_PREFIX
                    + "', which Errand reserves for workflow dependencies; choose another name");
        }
        return name;
    }

    /** The prefix of the event names that workflow dependencies wait on; refused for applications' events. */
    public static final String RESERVED_PREFIX = "errand:after:";

    /**
     * Returns a copy that expires at {@code deadline}, on the database's clock. Replaces any timeout.
     *
     * @throws IllegalArgumentException if the deadline is null or already past on this JVM's clock
     */
    public Condition deadline(Instant deadline) {
        return new Condition(event, requireFuture("The deadline of condition '" + event + "'", deadline), null);
    }

    /**
     * Returns a copy that expires {@code timeout} after the task is enqueued, on the database's clock.
     * Replaces any deadline.
     *
     * @throws IllegalArgumentException if the timeout is null, zero or negative, or longer than {@link Delays#MAX}
     */
    public Condition timeout(Duration timeout) {
        return new Condition(event, null, requirePositive("The timeout of condition '" + event + "'", timeout));
    }

    /** The event's name. */
    public String event() {
        return event;
    }

    /** The absolute deadline, if one was set with {@link #deadline(Instant)}. */
    public Optional<Instant> deadline() {
        return Optional.ofNullable(deadline);
    }

    /** The deadline relative to the enqueue, if one was set with {@link #timeout(Duration)}. */
    public Optional<Duration> timeout() {
        return Optional.ofNullable(timeout);
    }

    /**
     * Checks an expiry instant: not null, not already past on this JVM's clock (a plain check of the input;
     * the expiry itself is decided on the database's clock), and storable by every database.
     *
     * @param what how to call it in the message
     * @return the instant
     */
    public static Instant requireFuture(String what, Instant instant) {
        if (instant == null) {
            throw new IllegalArgumentException(what + " must not be null; leave it unset for no deadline");
        }
        if (!instant.isAfter(Instant.now())) {
            throw new IllegalArgumentException(
                    what + " is in the past (" + instant + "); give a future instant, or a timeout instead");
        }
        if (instant.isAfter(Instant.parse("9999-12-31T23:59:59Z"))) {
            throw new IllegalArgumentException(what + " must be before the year 10000, got " + instant);
        }
        return instant;
    }

    /**
     * Checks an expiry timeout: positive and at most {@link Delays#MAX}.
     *
     * @param what how to call it in the message
     * @return the timeout
     */
    public static Duration requirePositive(String what, Duration timeout) {
        Delays.require(what, timeout);
        if (timeout.isZero()) {
            throw new IllegalArgumentException(what + " must be positive, got 0; leave it unset for no deadline");
        }
        return timeout;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Condition that
                && event.equals(that.event)
                && Objects.equals(deadline, that.deadline)
                && Objects.equals(timeout, that.timeout);
    }

    @Override
    public int hashCode() {
        return Objects.hash(event, deadline, timeout);
    }

    @Override
    public String toString() {
        return "Condition[" + event + (deadline != null ? ", deadline " + deadline : "")
                + (timeout != null ? ", timeout " + timeout : "") + "]";
    }
}
