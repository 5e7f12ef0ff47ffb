package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/** Finished tasks are pruned after their state's retention, or their kind's, and not before. */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class RetentionContractTest extends ErrandTestSupport {

    RetentionContractTest(Target target) {
        super(target);
    }

    private static TaskDefinition.Builder<Integer> failing(String kind) {
        return TaskDefinition.builder(kind, Integer.class, (n, ctx) -> {
                    throw new IllegalStateException("no");
                })
                .maxAttempts(1);
    }

    @Test
    void eachFinalStateAndEachKindIsKeptForItsOwnRetention() throws Exception {
        Errand errand = node(builder()
                .historyEnabled(true)
                .succeededRetention(Duration.ofMinutes(30))
                .failedRetention(Duration.ofHours(1))
                .cancelledRetention(Duration.ofHours(2))
                .pruneInterval(Duration.ofSeconds(1))
                .register(TaskDefinition.builder("fine", Integer.class, (n, ctx) -> {})
                        .build())
                .register(failing("short-lived").build())
                .register(failing("audited")
                        .retention(TaskState.FAILED, Duration.ofDays(1))
                        .build()));
        long fine = errand.enqueue(TaskRequest.of("fine", 1)).id();
        long shortLived = errand.enqueue(TaskRequest.of("short-lived", 1)).id();
        long audited = errand.enqueue(TaskRequest.of("audited", 1)).id();
        long cancelled = errand.enqueue(TaskRequest.builder("fine", 2)
                        .runAt(Instant.now().plus(Duration.ofDays(30)))
                        .build())
                .id();
        assertThat(errand.admin().cancel(cancelled)).isTrue();
        errand.start();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> tasksIn(TaskState.SUCCEEDED) == 1 && tasksIn(TaskState.FAILED) == 2);

        Thread.sleep(1_500); // the point: a prune runs (interval 1 s) and keeps everything
        assertThat(taskRows()).as("nothing is past its retention yet").isEqualTo(4);

        clock.advance(Duration.ofMinutes(45));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> errand.admin().find(fine).isEmpty());
        assertThat(taskRows()).isEqualTo(3);

        clock.advance(Duration.ofMinutes(30));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> errand.admin().find(shortLived).isEmpty());
        assertThat(errand.admin().find(audited))
                .as("its kind keeps failed tasks a day")
                .isPresent();
        assertThat(errand.admin().find(cancelled)).isPresent();

        clock.advance(Duration.ofHours(1));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> errand.admin().find(cancelled).isEmpty());
        assertThat(errand.admin().find(audited)).isPresent();

        clock.advance(Duration.ofDays(1));
        await().atMost(Duration.ofSeconds(10)).until(() -> taskRows() == 0);
        assertThat(errand.history().attempts(audited))
                .as("the history has a retention of its own")
                .hasSize(1);
    }

    @Test
    void anOperatorPrunesFinishedTasksByStateInBatches() throws Exception {
        Errand errand = node(builder().register(failing("doomed").build()));
        for (int i = 0; i < 3; i++) {
            errand.enqueue(TaskRequest.of("doomed", i));
        }
        errand.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> tasksIn(TaskState.FAILED) == 3);
        assertThat(errand.admin().pruneFinished(TaskState.FAILED, Duration.ofMinutes(1)))
                .isZero();
        clock.advance(Duration.ofMinutes(2));
        assertThat(errand.admin().pruneFinished(TaskState.CANCELLED, Duration.ofMinutes(1)))
                .isZero();
        assertThat(errand.admin().pruneFinished(TaskState.FAILED, Duration.ofMinutes(1)))
                .isEqualTo(3);
        assertThat(taskRows()).isZero();

        assertThatThrownBy(() -> errand.admin().pruneFinished(TaskState.PENDING, Duration.ofMinutes(1)))
                .hasMessageContaining("give SUCCEEDED, FAILED or CANCELLED");
        assertThatThrownBy(() -> errand.admin().pruneFinished(TaskState.FAILED, null))
                .hasMessageContaining("zero or more");
        assertThatThrownBy(() -> TaskDefinition.builder("k", Integer.class, (n, c) -> {})
                        .retention(TaskState.RUNNING, Duration.ofDays(1)))
                .hasMessageContaining("give SUCCEEDED, FAILED or CANCELLED");
        assertThatThrownBy(() -> TaskDefinition.builder("k", Integer.class, (n, c) -> {})
                        .retention(TaskState.FAILED, Duration.ZERO))
                .hasMessageContaining("retention of FAILED");
    }
}
