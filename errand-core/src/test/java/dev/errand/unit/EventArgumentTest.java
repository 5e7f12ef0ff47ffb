package dev.errand.unit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.enqueue.TaskRequest;
import dev.errand.event.Condition;
import dev.errand.task.TaskDefinition;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Bad conditions, deadlines and event names are refused when they are declared, with what to do. */
class EventArgumentTest {

    private static TaskRequest.Builder request() {
        return TaskRequest.builder("receipt", 1);
    }

    @Test
    void eventNamesMustBeOneTo255PlainCharacters() {
        assertThatThrownBy(() -> Condition.on(null)).hasMessageContaining("Event name must be 1 to 255");
        assertThatThrownBy(() -> Condition.on("  ")).hasMessageContaining("non-blank");
        assertThatThrownBy(() -> Condition.on("x".repeat(256))).hasMessageContaining("at most 255 characters, got 256");
        assertThatThrownBy(() -> Condition.on(" padded")).hasMessageContaining("whitespace");
        assertThatThrownBy(() -> Condition.on("line\nbreak")).hasMessageContaining("control characters");
        assertThat(Condition.on("x".repeat(255)).event()).hasSize(255);
        assertThatThrownBy(() -> request().condition((String) null)).hasMessageContaining("Event name");
        assertThatThrownBy(() -> request().condition((Condition) null)).hasMessageContaining("Condition.on");
    }

    @Test
    void aTaskWaitsForEachEventOnce() {
        assertThatThrownBy(() -> request().condition("paid").condition(Condition.on("paid")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("already waits for event 'paid'");
    }

    @Test
    void deadlinesMustLieAheadAndConditionsMustNotOutliveTheirTask() {
        Instant past = Instant.now().minusSeconds(60);
        assertThatThrownBy(() -> request().expiresAt(past)).hasMessageContaining("in the past");
        assertThatThrownBy(() -> request().expiresAt(null)).hasMessageContaining("must not be null");
        assertThatThrownBy(() -> request().expiresIn(Duration.ZERO)).hasMessageContaining("must be positive");
        assertThatThrownBy(() -> request().expiresIn(Duration.ofSeconds(-1))).hasMessageContaining("zero or more");
        assertThatThrownBy(() -> Condition.on("e").deadline(past)).hasMessageContaining("in the past");
        assertThatThrownBy(() -> Condition.on("e").timeout(Duration.ZERO)).hasMessageContaining("must be positive");

        Instant soon = Instant.now().plusSeconds(600);
        assertThatThrownBy(() -> request()
                        .expiresAt(soon)
                        .condition(Condition.on("late").deadline(soon.plusSeconds(1)))
                        .build())
                .hasMessageContaining("condition 'late' is later than the task's own deadline");
        assertThatThrownBy(() -> request()
                        .expiresIn(Duration.ofMinutes(5))
                        .condition(Condition.on("late").timeout(Duration.ofMinutes(6)))
                        .build())
                .hasMessageContaining("condition 'late' is later than the task's own deadline");
        assertThatThrownBy(() ->
                        request().runAt(soon.plusSeconds(60)).expiresAt(soon).build())
                .hasMessageContaining("is not after its run time");
        assertThatThrownBy(() -> request()
                        .delay(Duration.ofHours(1))
                        .expiresIn(Duration.ofMinutes(30))
                        .build())
                .hasMessageContaining("not longer than its delay");

        TaskRequest fine = request()
                .expiresIn(Duration.ofMinutes(10))
                .condition(Condition.on("a").timeout(Duration.ofMinutes(5)))
                .condition("b")
                .build();
        assertThat(fine.conditions()).extracting(Condition::event).containsExactly("a", "b");
    }

    @Test
    void commitWritesOnNeedsExceptionTypes() {
        TaskDefinition.Builder<Integer> builder = TaskDefinition.builder("k", Integer.class, (n, c) -> {});
        assertThatThrownBy(() -> builder.commitWritesOn()).hasMessageContaining("at least one exception type");
        assertThatThrownBy(() -> builder.commitWritesOn((Class<? extends Exception>) null))
                .hasMessageContaining("exception type");
        assertThat(builder.commitWritesOn(IllegalStateException.class)
                        .build()
                        .commitsWritesOn(new IllegalStateException()))
                .isTrue();
    }
}
