package dev.errand.spring.metrics;

import dev.errand.spi.TaskListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Objects;

/**
 * Turns this node's task events into Micrometer meters, each tagged with {@code kind} and {@code queue}:
 *
 * <ul>
 *   <li>counters {@code errand.tasks.enqueued}, {@code errand.tasks.started}, {@code errand.tasks.succeeded},
 *       {@code errand.tasks.retried} (another attempt scheduled, including retry-later requests),
 *       {@code errand.tasks.failed} (failed for good) and {@code errand.tasks.rescued} (worker lost);</li>
 *   <li>timer {@code errand.tasks.execution}: the run time of attempts that succeeded;</li>
 *   <li>counter {@code errand.lock.conflicts}, tagged {@code operation}: statements retried after a
 *       deadlock or lock timeout.</li>
 * </ul>
 *
 * <p>{@code enqueued} counts inserts by this node, before the caller's transaction ends; a rolled-back
 * enqueue is still counted.
 */
public final class ErrandMetrics implements TaskListener {

    private final MeterRegistry registry;

    /** Creates the listener on {@code registry}. */
    public ErrandMetrics(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry must not be null");
    }

    /** Counts enqueued tasks. */
    @Override
    public void enqueued(String kind, String queue, int count) {
        counter("errand.tasks.enqueued", "Tasks enqueued by this node", kind, queue)
                .increment(count);
    }

    /** Counts started attempts. */
    @Override
    public void started(String kind, String queue, int attempt) {
        counter("errand.tasks.started", "Attempts started on this node", kind, queue)
                .increment();
    }

    /** Counts a succeeded attempt and records its run time. */
    @Override
    public void succeeded(String kind, String queue, Duration duration) {
        counter("errand.tasks.succeeded", "Tasks completed successfully on this node", kind, queue)
                .increment();
        Timer.builder("errand.tasks.execution")
                .description("Run time of the attempts that succeeded on this node")
                .tags("kind", kind, "queue", queue)
                .register(registry)
                .record(duration);
    }

    /** Counts an attempt that failed (or asked to retry later) and was scheduled again. */
    @Override
    public void retried(String kind, String queue, int attempt) {
        counter("errand.tasks.retried", "Attempts that failed and were scheduled again", kind, queue)
                .increment();
    }

    /** Counts a task that failed for good. */
    @Override
    public void failed(String kind, String queue, int attempt) {
        counter("errand.tasks.failed", "Tasks that failed for good", kind, queue)
                .increment();
    }

    /** Counts a task rescued after its worker was lost. */
    @Override
    public void rescued(String kind, String queue) {
        counter("errand.tasks.rescued", "Tasks whose worker was lost and that this node rescued", kind, queue)
                .increment();
    }

    /** Counts a statement retried after a lock conflict. */
    @Override
    public void lockConflictRetried(String operation) {
        Counter.builder("errand.lock.conflicts")
                .description("Statements retried after a deadlock or lock timeout")
                .tag("operation", operation)
                .register(registry)
                .increment();
    }

    private Counter counter(String name, String description, String kind, String queue) {
        return Counter.builder(name)
                .description(description)
                .tags("kind", kind, "queue", queue)
                .register(registry);
    }
}
