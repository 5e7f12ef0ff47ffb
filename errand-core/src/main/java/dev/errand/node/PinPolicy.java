package dev.errand.node;

import dev.errand.config.TimeLimits;
import java.time.Duration;

/**
 * What happens to a task pinned to a node that is dead or never registered. Set per kind with
 * {@code TaskDefinition.Builder.pinPolicy}; the leader applies it at each heartbeat.
 *
 * @param action what to do
 * @param timeout for {@link Action#FAIL}: how long past its run time the task may wait first
 */
public record PinPolicy(Action action, Duration timeout) {

    /** What to do with such a task. */
    public enum Action {
        /** Keep waiting for the node to come back (the default). */
        WAIT,
        /** Fail it once it has been due for longer than the timeout, with an error naming the node. */
        FAIL,
        /** Drop the node pin: a node of its group (or, without a group, any node) runs it. */
        FALL_BACK_TO_GROUP
    }

    private static final PinPolicy WAIT = new PinPolicy(Action.WAIT, null);
    private static final PinPolicy FALL_BACK = new PinPolicy(Action.FALL_BACK_TO_GROUP, null);

    /** Checks that only {@link Action#FAIL} has a timeout, and that it is positive. */
    public PinPolicy {
        if (action == null) {
            throw new IllegalArgumentException("action must not be null; use PinPolicy.waitForNode(),"
                    + " failAfter(timeout) or fallBackToGroup()");
        }
        if (action == Action.FAIL
                && (timeout == null
                        || timeout.isNegative()
                        || timeout.isZero()
                        || timeout.compareTo(TimeLimits.MAX_DURATION) > 0)) {
            throw new IllegalArgumentException("PinPolicy.failAfter needs a positive timeout of at most "
                    + TimeLimits.MAX_DURATION.toDays() + " days (100 years), measured on the database's clock, got "
                    + timeout);
        }
        if (action != Action.FAIL && timeout != null) {
            throw new IllegalArgumentException("Only PinPolicy.failAfter takes a timeout");
        }
    }

    /** Waits for the node, however long (the default). */
    public static PinPolicy waitForNode() {
        return WAIT;
    }

    /**
     * Fails the task once it has been due for longer than {@code timeout} while its node is absent.
     *
     * @throws IllegalArgumentException unless the timeout is positive and at most 36,500 days
     *     ({@link TimeLimits#MAX_DURATION})
     */
    public static PinPolicy failAfter(Duration timeout) {
        return new PinPolicy(Action.FAIL, timeout);
    }

    /** Lets the task's group (or, without a group, any node) run it once its node is absent. */
    public static PinPolicy fallBackToGroup() {
        return FALL_BACK;
    }
}
