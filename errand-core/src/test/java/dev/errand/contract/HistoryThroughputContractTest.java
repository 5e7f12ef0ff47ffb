package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.history.Throughput;
import dev.errand.retry.RetryPolicy;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code HistoryAdmin.throughput}: attempts that ended per bucket, from the attempt history, on a real database. */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class HistoryThroughputContractTest extends ErrandTestSupport {

    HistoryThroughputContractTest(Target target) {
        super(target);
    }

    private Errand node(boolean history) {
        return node(builder()
                .historyEnabled(history)
                .register(TaskDefinition.builder("ok", Integer.class, (n, ctx) -> {})
                        .build())
                .register(TaskDefinition.builder("plain-ok", Integer.class, (n, ctx) -> {})
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build())
                .register(TaskDefinition.builder("flaky", Integer.class, (n, ctx) -> {
                            if (ctx.attempt() < 2) {
                                throw new IllegalStateException("not yet");
                            }
                        })
                        .retryPolicy(RetryPolicy.fixed(Duration.ZERO))
                        .maxAttempts(2)
                        .build())
                .register(TaskDefinition.builder("doomed", Integer.class, (n, ctx) -> {
                            throw new IllegalArgumentException("never");
                        })
                        .maxAttempts(1)
                        .build()));
    }

    private static long[] sums(Throughput throughput) {
        long[] sums = new long[3];
        for (Throughput.Bucket bucket : throughput.buckets()) {
            sums[0] += bucket.succeeded();
            sums[1] += bucket.failed();
            sums[2] += bucket.retried();
        }
        return sums;
    }

    @Test
    void countsSucceededFailedAndRetriedAttemptsPerMinuteOfTheLastHour() throws Exception {
        Errand errand = node(true);
        errand.start();
        for (int i = 0; i < 3; i++) {
            errand.enqueue(TaskRequest.of("ok", i));
        }
        errand.enqueue(TaskRequest.of("plain-ok", 9));
        errand.enqueue(TaskRequest.of("flaky", 1));
        errand.enqueue(TaskRequest.of("doomed", 2));

        // Succeeded: 3 + 1 + the flaky task's second attempt; failed for good: the doomed one; retried: flaky's first.
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(sums(errand.history()
                        .throughput(Duration.ofHours(1), Duration.ofMinutes(1))
                        .orElseThrow()))
                .containsExactly(5, 1, 1));

        Throughput hour = errand.history()
                .throughput(Duration.ofHours(1), Duration.ofMinutes(1))
                .orElseThrow();
        Instant now = databaseNow().plus(clock.offset());
        assertThat(hour.buckets()).hasSize(60);
        assertThat(hour.bucket()).isEqualTo(Duration.ofMinutes(1));
        Instant last = hour.buckets().get(59).start();
        assertThat(last.getEpochSecond() % 60).isZero();
        assertThat(last).isBeforeOrEqualTo(hour.databaseTime());
        assertThat(hour.databaseTime()).isBetween(now.minusSeconds(60), now.plusSeconds(1));
        assertThat(hour.buckets().get(0).start()).isEqualTo(last.minus(Duration.ofMinutes(59)));
        // Everything ended in the last two minutes: the first 58 buckets are empty.
        assertThat(hour.buckets().subList(0, 58))
                .allSatisfy(bucket -> assertThat(bucket.succeeded() + bucket.failed() + bucket.retried())
                        .isZero());

        // An hour later, the window has moved past them.
        clock.advance(Duration.ofHours(2));
        assertThat(sums(errand.history()
                        .throughput(Duration.ofHours(1), Duration.ofMinutes(1))
                        .orElseThrow()))
                .containsExactly(0, 0, 0);
        assertThat(sums(errand.history()
                        .throughput(Duration.ofHours(24), Duration.ofMinutes(10))
                        .orElseThrow()))
                .containsExactly(5, 1, 1);
    }

    @Test
    void withoutTheHistoryThereIsNoneAndBadWindowsAreRefused() {
        Errand errand = node(false);
        assertThat(errand.history().throughput(Duration.ofHours(1), Duration.ofMinutes(1)))
                .isEmpty();
        for (Duration[] bad : new Duration[][] {
            {null, Duration.ofMinutes(1)},
            {Duration.ofHours(1), null},
            {Duration.ofHours(1), Duration.ofSeconds(9)},
            {Duration.ofHours(1), Duration.ofHours(2)},
            {Duration.ofHours(25), Duration.ofMinutes(1)},
            {Duration.ofSeconds(90), Duration.ofMinutes(1)},
            {Duration.ofSeconds(30), Duration.ofMinutes(1)},
            {Duration.ofHours(1), Duration.ofMillis(10_500)}
        }) {
            assertThatThrownBy(() -> errand.history().throughput(bad[0], bad[1]))
                    .as("%s by %s", bad[0], bad[1])
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("must be");
        }
    }
}
