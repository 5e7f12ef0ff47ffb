package dev.errand.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.spi.ClaimedTask;
import dev.errand.spi.TraceContext;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/**
 * The task's keys are in the MDC while the attempt runs, and the thread's MDC is as before afterwards. It lives in
 * the starter, in the core's package: the core's tests log through slf4j-simple, whose MDC keeps nothing, and
 * Logback's does.
 */
class TaskLogContextTest {

    @AfterEach
    void clear() {
        MDC.clear();
    }

    @Test
    void theKeysNameTheTaskAndGoAwayAfter() {
        MDC.put("request", "r-1");
        try (TaskLogContext ignored = TaskLogContext.enter(task(42, "send-invoice", 3))) {
            assertThat(MDC.getCopyOfContextMap())
                    .containsExactlyInAnyOrderEntriesOf(Map.of(
                            "request",
                            "r-1",
                            TaskLogContext.TASK_ID,
                            "42",
                            TaskLogContext.KIND,
                            "send-invoice",
                            TaskLogContext.ATTEMPT,
                            "3"));
        }
        assertThat(MDC.getCopyOfContextMap()).containsExactlyEntriesOf(Map.of("request", "r-1"));
    }

    @Test
    void aNestedAttemptPutsBackTheOuterOne() {
        try (TaskLogContext outer = TaskLogContext.enter(task(1, "outer", 1))) {
            try (TaskLogContext inner = TaskLogContext.enter(task(2, "inner", 5))) {
                assertThat(MDC.get(TaskLogContext.TASK_ID)).isEqualTo("2");
            }
            assertThat(MDC.get(TaskLogContext.TASK_ID)).isEqualTo("1");
            assertThat(MDC.get(TaskLogContext.KIND)).isEqualTo("outer");
            assertThat(MDC.get(TaskLogContext.ATTEMPT)).isEqualTo("1");
        }
        assertThat(MDC.get(TaskLogContext.TASK_ID)).isNull();
        assertThat(MDC.get(TaskLogContext.KIND)).isNull();
        assertThat(MDC.get(TaskLogContext.ATTEMPT)).isNull();
    }

    @Test
    void aTaskThatCarriesATraceContextPutsItsTraceIdBesideItsKeys() {
        ClaimedTask task = new ClaimedTask(
                9,
                "traced",
                "default",
                null,
                1,
                5,
                7L,
                ClaimedTask.Links.NONE,
                new TraceContext("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", null));
        try (TaskLogContext ignored = TaskLogContext.enter(task)) {
            assertThat(MDC.get(TaskLogContext.TRACE_ID)).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        }
        assertThat(MDC.get(TaskLogContext.TRACE_ID)).isNull();
    }

    private static ClaimedTask task(long id, String kind, int attempt) {
        return new ClaimedTask(id, kind, "default", null, attempt, 5, 7L);
    }
}
