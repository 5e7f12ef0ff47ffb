package dev.errand.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * An attempt's deadline counts as passed once its time is up, even when the timer's thread has not run yet: on a
 * busy machine the database's own statement timeout can stop the handler first, and that is still a timeout.
 */
class DeadlineTest {

    @Test
    void anAttemptThatEndsAfterItsTimeIsUpIsLateBeforeTheTimerFires() {
        AtomicLong now = new AtomicLong(1_000);
        // An hour: the timer cannot fire during the test.
        Deadline deadline = Deadline.start(Duration.ofHours(1), now::get);
        now.addAndGet(Duration.ofHours(1).toNanos());
        assertThat(deadline.end()).isTrue();
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void anAttemptThatEndsInTimeIsNotLate() {
        AtomicLong now = new AtomicLong(1_000);
        Deadline deadline = Deadline.start(Duration.ofHours(1), now::get);
        now.addAndGet(Duration.ofHours(1).toNanos() - 1);
        assertThat(deadline.end()).isFalse();
    }

    @Test
    void theTimerInterruptsTheWorkerAndEndClearsTheInterrupt() throws Exception {
        Deadline deadline = Deadline.start(Duration.ofMillis(20));
        try {
            // A handler waiting on something that never comes: only the deadline's interrupt ends the wait.
            new java.util.concurrent.CountDownLatch(1).await(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException expected) {
            Thread.currentThread().interrupt();
        }
        assertThat(deadline.end()).isTrue();
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }
}
