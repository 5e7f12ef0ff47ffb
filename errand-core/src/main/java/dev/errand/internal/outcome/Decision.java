package dev.errand.internal.outcome;

import dev.errand.task.FailureCause;
import java.time.Duration;

/** What the engine does about an attempt's {@link Ending}. */
public sealed interface Decision {

    /** Complete the task: delete it, or keep it as succeeded under retention. */
    record Complete() implements Decision {}

    /**
     * Put the task back to pending after {@code delay}; the attempt counts.
     *
     * @param delay the delay before the next attempt
     * @param error the attempt's error to record, or {@code null} when the handler asked for the retry
     */
    record Retry(Duration delay, FailureCause error) implements Decision {}

    /**
     * Put the task back to pending after {@code delay} without counting the attempt or recording an
     * error: the attempt ended for a reason that says nothing about the task.
     *
     * @param delay the pause before it may be claimed again
     */
    record Requeue(Duration delay) implements Decision {}

    /** Mark the task cancelled, as an operator asked: no retry, no failure callback. */
    record Cancel() implements Decision {}

    /**
     * Fail the task for good and run its kind's failure callback.
     *
     * @param cause why
     */
    record Fail(FailureCause cause) implements Decision {}
}
