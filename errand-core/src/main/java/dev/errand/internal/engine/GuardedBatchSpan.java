package dev.errand.internal.engine;

import dev.errand.spi.TaskTracing;
import dev.errand.spi.TaskTracing.BatchSpan;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A claim's or a completion batch's span behind a guard: tracing that throws is logged and otherwise ignored, so it
 * never fails the step it observes.
 */
final class GuardedBatchSpan implements BatchSpan {

    private static final Logger log = LoggerFactory.getLogger(GuardedBatchSpan.class);

    private final BatchSpan span;
    private final String step;

    private GuardedBatchSpan(BatchSpan span, String step) {
        this.span = span;
        this.step = step;
    }

    /**
     * Opens the span {@code open} gives for {@code tracing}; {@link BatchSpan#NONE} without tracing or when opening
     * fails. {@code step} names the step in log lines ("claim", "completion").
     */
    static BatchSpan open(TaskTracing tracing, String step, Function<TaskTracing, BatchSpan> open) {
        if (tracing == TaskTracing.NONE) {
            return BatchSpan.NONE;
        }
        try {
            BatchSpan span = open.apply(tracing);
            return span == null ? BatchSpan.NONE : new GuardedBatchSpan(span, step);
        } catch (RuntimeException e) {
            log.warn("Tracing could not start the span of a {}; it runs without one", step, e);
            return BatchSpan.NONE;
        }
    }

    @Override
    public void tasks(int count) {
        try {
            span.tasks(count);
        } catch (RuntimeException e) {
            log.warn("Tracing could not record the tasks of a {}", step, e);
        }
    }

    @Override
    public void failed(Throwable error) {
        try {
            span.failed(error);
        } catch (RuntimeException e) {
            log.warn("Tracing could not record the failure of a {}", step, e);
        }
    }

    @Override
    public void close() {
        try {
            span.close();
        } catch (RuntimeException e) {
            log.warn("Tracing could not end the span of a {}", step, e);
        }
    }
}
