package dev.errand.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.ContinueOptions;
import dev.errand.task.ExecutionMode;
import dev.errand.task.Task;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskKind;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code TaskContext.continueWith} with {@link ContinueOptions}: the next step gets the delay, priority,
 * queue and other options asked for, in both execution modes, and bad options are refused with a message.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class ContinueOptionsTest extends ErrandTestSupport {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final TaskKind<String> NEXT = TaskKind.of("next", String.class);
    private static final ContinueOptions LATER = ContinueOptions.builder()
            .delay(Duration.ofHours(1))
            .priority(2)
            .queue("other")
            .maxAttempts(7)
            .uniqueKey("next-of-a-step")
            .expiresIn(Duration.ofDays(1))
            .build();

    private final List<String> ran = new CopyOnWriteArrayList<>();

    ContinueOptionsTest(Target target) {
        super(target);
    }

    private Errand optionsNode() {
        return node(builder()
                .queue("default", 2)
                .queue("other", 1)
                .succeededRetention(Duration.ofHours(1))
                .register(TaskDefinition.builder("tx", String.class, (name, ctx) -> {
                            ran.add(name);
                            ctx.continueWith(NEXT, name + "-next", LATER);
                        })
                        .build())
                .register(TaskDefinition.builder("loose", String.class, (name, ctx) -> {
                            ran.add(name);
                            ctx.continueWith("next", name + "-next", LATER);
                        })
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build())
                .register(TaskDefinition.builder("now-elsewhere", String.class, (name, ctx) -> {
                            ran.add(name);
                            ctx.continueWith(
                                    NEXT,
                                    name + "-next",
                                    ContinueOptions.builder().queue("other").build());
                        })
                        .build())
                .register(TaskDefinition.builder("misuser", String.class, (name, ctx) -> {
                            ran.add(name);
                            refused(() -> ctx.continueWith(NEXT, "x", null));
                            refused(() -> ctx.continueWith("next", "x", null));
                            refused(() -> ctx.continueWith(
                                    NEXT,
                                    "x",
                                    ContinueOptions.builder().queue("nowhere").build()));
                            refused(() -> ctx.continueWith(
                                    NEXT,
                                    "x",
                                    ContinueOptions.builder()
                                            .runAt(Instant.parse("+10000-01-01T00:00:00Z"))
                                            .build()));
                            refused(() -> ctx.continueWith(
                                    "next", 42, ContinueOptions.builder().build()));
                        })
                        .build())
                .register(TaskDefinition.builder(NEXT, (name, ctx) -> ran.add(name))
                        .build()));
    }

    private void refused(Runnable call) {
        try {
            call.run();
            ran.add("accepted");
        } catch (IllegalArgumentException expected) {
            ran.add("refused: " + expected.getMessage());
        }
    }

    @Test
    void aTransactionalStepContinuesWithItsOptions() throws Exception {
        assertContinuesWithOptions("tx");
    }

    @Test
    void aNonTransactionalStepContinuesWithItsOptions() throws Exception {
        assertContinuesWithOptions("loose");
    }

    private void assertContinuesWithOptions(String kind) throws Exception {
        Errand errand = optionsNode();
        long first = errand.enqueue(TaskRequest.builder(kind, "a").build()).id();
        errand.start();
        await().atMost(WAIT).until(() -> errand.admin().chain(first).size() == 2);
        long next = errand.admin().chain(first).get(1);
        Task continuation = task(errand, next);
        Instant completed = task(errand, first).finishedAt();
        assertThat(continuation.kind()).isEqualTo("next");
        assertThat(continuation.payloadJson()).contains("a-next");
        assertThat(continuation.state()).isEqualTo(TaskState.PENDING);
        assertThat(continuation.queue()).isEqualTo("other");
        assertThat(continuation.priority()).isEqualTo(2);
        assertThat(continuation.maxAttempts()).isEqualTo(7);
        assertThat(continuation.uniqueKey()).isEqualTo("next-of-a-step");
        // The delay counts from the completion, on the database clock.
        assertThat(Duration.between(completed, continuation.runAt()))
                .isBetween(Duration.ofMinutes(59), Duration.ofMinutes(61));
        Thread.sleep(300); // the point: the continuation does not run before its delay
        assertThat(ran).containsExactly("a");
    }

    @Test
    void withoutADelayTheContinuationRunsNowInTheQueueAskedFor() throws Exception {
        Errand errand = optionsNode();
        errand.enqueue(TaskRequest.builder("now-elsewhere", "b").build());
        errand.start();
        await().atMost(WAIT).until(() -> ran.contains("b-next"));
        assertThat(ran).containsExactly("b", "b-next");
    }

    @Test
    void badOptionsAreRefusedWithAMessage() throws Exception {
        Errand errand = optionsNode();
        errand.enqueue(TaskRequest.builder("misuser", "m").build());
        errand.start();
        await().atMost(WAIT).until(() -> ran.size() == 6);
        assertThat(ran.subList(1, 6)).allMatch(line -> line.startsWith("refused: "));
        assertThat(ran.get(1)).contains("continueWith(kind, payload)");
        assertThat(ran.get(3)).contains("nowhere");
        assertThat(ran.get(4)).contains("between");
        Thread.sleep(300); // the point: no continuation appears in this time
        assertThat(taskRows()).as("no continuation was created").isEqualTo(1);

        ContinueOptions.Builder builder = ContinueOptions.builder();
        assertThatThrownBy(() -> builder.delay(null)).hasMessageContaining("delay");
        assertThatThrownBy(() -> builder.delay(Duration.ofSeconds(-1))).hasMessageContaining("delay");
        assertThatThrownBy(() -> builder.runAt(null)).hasMessageContaining("runAt");
        assertThatThrownBy(() -> builder.priority(0)).hasMessageContaining("between 1");
        assertThatThrownBy(() -> builder.priority(11)).hasMessageContaining("between 1");
        assertThatThrownBy(() -> builder.queue(" ")).hasMessageContaining("queue");
        assertThatThrownBy(() -> builder.maxAttempts(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.node("")).hasMessageContaining("node");
        assertThatThrownBy(() -> builder.nodeGroup("a,b")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.uniqueKey(" k")).hasMessageContaining("uniqueKey");
        assertThatThrownBy(() -> builder.expiresIn(Duration.ZERO)).hasMessageContaining("positive");
        assertThat(builder.build().queue()).isEmpty();
    }
}
