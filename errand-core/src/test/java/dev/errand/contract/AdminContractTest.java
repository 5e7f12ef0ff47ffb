package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.admin.Page;
import dev.errand.admin.TaskQuery;
import dev.errand.enqueue.Enqueued;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.Task;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import dev.errand.testkit.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/** The admin API: find, list and count (paged), cancel, retry now, reschedule, delete. */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class AdminContractTest extends ErrandTestSupport {

    AdminContractTest(Target target) {
        super(target);
    }

    @Test
    void listsAndCountsByStateKindAndQueueInPages() throws Exception {
        Errand errand = node(builder().queue("default", 1).queue("bulk", 1));
        List<TaskRequest> requests = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            requests.add(TaskRequest.builder(i % 2 == 0 ? "even" : "odd", i)
                    .queue(i < 20 ? "default" : "bulk")
                    .build());
        }
        List<Long> ids = errand.enqueueAll(requests).stream().map(Enqueued::id).toList();
        errand.admin().cancel(ids.get(0));

        assertThat(errand.admin().count(TaskQuery.all())).isEqualTo(25);
        assertThat(errand.admin().count(TaskQuery.builder().kind("even").build()))
                .isEqualTo(13);
        assertThat(errand.admin().count(TaskQuery.builder().queue("bulk").build()))
                .isEqualTo(5);
        assertThat(errand.admin()
                        .count(TaskQuery.builder().state(TaskState.CANCELLED).build()))
                .isEqualTo(1);
        assertThat(errand.admin()
                        .count(TaskQuery.builder()
                                .state(TaskState.PENDING)
                                .kind("even")
                                .queue("default")
                                .build()))
                .isEqualTo(9);

        Page<Task> first = errand.admin().list(TaskQuery.builder().limit(10).build());
        Page<Task> third =
                errand.admin().list(TaskQuery.builder().offset(20).limit(10).build());
        assertThat(first.items()).extracting(Task::id).containsExactlyElementsOf(ids.subList(0, 10));
        assertThat(first.total()).isEqualTo(25);
        assertThat(first.hasNext()).isTrue();
        assertThat(third.items()).hasSize(5);
        assertThat(third.hasNext()).isFalse();
    }

    @Test
    void cancelRetryRescheduleAndDeleteActOnlyInTheirStates() throws Exception {
        Errand errand = node(builder()
                .register(TaskDefinition.builder("flaky", Integer.class, (n, ctx) -> {
                            if (n < 0) {
                                throw new IllegalStateException("negative");
                            }
                            recordEffect(ctx.connection(), ctx.taskId(), "ran-" + n);
                        })
                        .maxAttempts(1)
                        .build()));
        long pending = errand.enqueue(TaskRequest.builder("flaky", 1)
                        .delay(Duration.ofHours(1))
                        .build())
                .id();
        Instant newTime = Instant.parse("2040-01-01T00:00:00Z");
        assertThat(errand.admin().reschedule(pending, newTime)).isTrue();
        assertThat(task(errand, pending).runAt()).isEqualTo(newTime);
        assertThat(errand.admin().retryNow(pending))
                .as("only failed or cancelled tasks retry")
                .isFalse();
        assertThat(errand.admin().cancel(pending)).isTrue();
        assertThat(errand.admin().cancel(pending)).as("already cancelled").isFalse();
        assertThat(task(errand, pending).state()).isEqualTo(TaskState.CANCELLED);
        assertThat(task(errand, pending).finishedAt()).isNotNull();
        assertThat(errand.admin().reschedule(pending, newTime)).isFalse();

        long failing = errand.enqueue(TaskRequest.of("flaky", -1)).id();
        errand.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> task(errand, failing).state() == TaskState.FAILED);
        // Fix the data the way an operator would, then retry now: attempts start afresh, history stays.
        try (var c = dataSource().getConnection();
                var s = c.createStatement()) {
            s.executeUpdate("UPDATE " + prefix + "task SET payload = "
                    + (database == TestDatabase.POSTGRES ? "'5'::jsonb" : "'5'") + " WHERE id = " + failing);
        }
        assertThat(errand.admin().retryNow(failing)).isTrue();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> errand.admin().find(failing).isEmpty());
        assertThat(effectNotes()).containsExactly("ran-5");

        assertThat(errand.admin().delete(pending)).isTrue();
        assertThat(errand.admin().delete(pending)).isFalse();
        assertThat(errand.admin().find(pending)).isEmpty();
    }

    @Test
    void badArgumentsAreRejectedWithAHint() {
        Errand errand = node(builder());
        assertThatThrownBy(() -> errand.admin().find(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("positive");
        assertThatThrownBy(() -> errand.admin().reschedule(1, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("runAt must not be null");
        assertThatThrownBy(() -> errand.admin().list(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("TaskQuery.all()");
        assertThatThrownBy(() -> TaskQuery.builder().limit(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 1 and 1000");
        assertThatThrownBy(() -> TaskQuery.builder().offset(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0 or more");
        assertThatThrownBy(() -> errand.admin().pruneSucceeded(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("zero or more");
    }
}
