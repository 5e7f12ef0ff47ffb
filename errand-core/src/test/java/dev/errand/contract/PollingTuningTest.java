package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskKind;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import dev.errand.testkit.TestDatabase;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The start-up delay holds the first claim back, and the minimum poll interval gathers wake-ups after a
 * claim that found nothing. Lower bounds only (a loaded machine may be slower, never faster); on H2.
 */
class PollingTuningTest extends ErrandTestSupport {

    private static final TaskKind<Integer> WORK = TaskKind.of("work", Integer.class);
    private final CountDownLatch ran = new CountDownLatch(1);

    PollingTuningTest() {
        super(Target.of(TestDatabase.H2));
    }

    private Errand node(Duration startupDelay, Duration minimumPoll) {
        return node(builder()
                .pollInterval(Duration.ofSeconds(5))
                .startupDelay(startupDelay)
                .minimumPollInterval(minimumPoll)
                .register(TaskDefinition.builder(WORK, (n, ctx) -> ran.countDown())
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build()));
    }

    @Test
    void theStartupDelayHoldsTheFirstClaimBack() throws Exception {
        Errand errand = node(Duration.ofMillis(800), Duration.ZERO);
        errand.enqueue(TaskRequest.of(WORK, 1));
        long started = System.nanoTime();
        errand.start();
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(800));
    }

    @Test
    void theMinimumPollIntervalGathersWakeUpsAfterAnEmptyClaim() throws Exception {
        Errand errand = node(Duration.ZERO, Duration.ofMillis(700));
        long started = System.nanoTime();
        errand.start();
        // The first claim finds nothing; the enqueue's wake-up then waits for the rest of the 700 ms.
        awaitFirstPoll(errand);
        errand.enqueue(TaskRequest.of(WORK, 1));
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(700));
    }

    @Test
    void withoutTuningAWakeUpClaimsAtOnce() throws Exception {
        Errand errand = node(Duration.ZERO, Duration.ZERO);
        errand.start();
        awaitFirstPoll(errand); // the first claim, which finds nothing
        long enqueued = System.nanoTime();
        errand.enqueue(TaskRequest.of(WORK, 1));
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        // Far below the 5 s poll interval: the in-process wake-up claimed it.
        assertThat(Duration.ofNanos(System.nanoTime() - enqueued)).isLessThan(Duration.ofSeconds(4));
    }
}
