package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.event.EventWaiters;
import dev.errand.task.TaskDefinition;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code EventAdmin.waitingCounts}: waiting tasks per event name over all of them, on a real database. */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class EventWaitingCountsContractTest extends ErrandTestSupport {

    EventWaitingCountsContractTest(Target target) {
        super(target);
    }

    private long waitFor(Errand errand, String... events) {
        TaskRequest.Builder request = TaskRequest.builder("wait", "x");
        for (String event : events) {
            request.condition(event);
        }
        return errand.enqueue(request.build()).id();
    }

    @Test
    void countsEveryWaitingTaskPerEventMostWaitersFirst() {
        Errand errand = node(builder()
                .register(TaskDefinition.builder("wait", String.class, (s, ctx) -> {})
                        .build()));
        long first = waitFor(errand, "paid:1");
        long both = waitFor(errand, "paid:1", "shipped:1");
        waitFor(errand, "paid:1");
        long refund = waitFor(errand, "refund:9");
        waitFor(errand, "paid:1");

        List<EventWaiters> counts = errand.events().waitingCounts(100);

        assertThat(counts)
                .extracting(EventWaiters::event, EventWaiters::waitingTasks, EventWaiters::oldestTaskId)
                .containsExactly(
                        tuple("paid:1", 4L, first), tuple("refund:9", 1L, refund), tuple("shipped:1", 1L, both));
        assertThat(counts.get(0).oldestCreatedAt())
                .isEqualTo(errand.admin().find(first).orElseThrow().createdAt());
        assertThat(errand.events().waitingCounts(1))
                .extracting(EventWaiters::event)
                .containsExactly("paid:1");

        errand.events().trigger("paid:1");

        assertThat(errand.events().waitingCounts(100))
                .extracting(EventWaiters::event, EventWaiters::waitingTasks, EventWaiters::oldestTaskId)
                .containsExactly(tuple("refund:9", 1L, refund), tuple("shipped:1", 1L, both));
    }

    @Test
    void noWaitingTaskCountsNothingAndBadLimitsAreRefused() {
        Errand errand = node(builder());
        assertThat(errand.events().waitingCounts(10)).isEmpty();
        for (int limit : new int[] {0, -1, 10_001}) {
            assertThatThrownBy(() -> errand.events().waitingCounts(limit))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("10000");
        }
    }
}
