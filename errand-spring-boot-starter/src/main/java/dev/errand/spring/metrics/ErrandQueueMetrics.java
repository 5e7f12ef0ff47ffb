package dev.errand.spring.metrics;

import dev.errand.admin.QueueLoads;
import dev.errand.spring.TaskStatistics;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gauges per queue of this node, tagged {@code queue}, read from the task table by {@link TaskStatistics}
 * (cached for {@code errand.stats.cache-duration}):
 *
 * <ul>
 *   <li>{@code errand.queue.depth}: pending tasks whose run time has passed, waiting for a worker;</li>
 *   <li>{@code errand.queue.lag}: how long the oldest of them has waited since its run time, by the
 *       database clock (zero when none is due).</li>
 * </ul>
 *
 * <p>When the database cannot be read the gauges report {@code NaN}.
 */
public final class ErrandQueueMetrics implements MeterBinder {

    private static final Logger log = LoggerFactory.getLogger(ErrandQueueMetrics.class);

    private final TaskStatistics statistics;
    private final List<String> queues;
    private volatile boolean failing;

    /**
     * Creates the gauges.
     *
     * @param statistics where the numbers come from
     * @param queues the queues to report, usually this node's
     */
    public ErrandQueueMetrics(TaskStatistics statistics, List<String> queues) {
        this.statistics = Objects.requireNonNull(statistics, "statistics must not be null");
        this.queues = List.copyOf(queues);
    }

    /** Registers one depth and one lag gauge per queue. */
    @Override
    public void bindTo(MeterRegistry registry) {
        for (String queue : queues) {
            Gauge.builder("errand.queue.depth", this, m -> m.depth(queue))
                    .description("Pending tasks whose run time has passed")
                    .tag("queue", queue)
                    .strongReference(true)
                    .register(registry);
            TimeGauge.builder("errand.queue.lag", this, TimeUnit.MILLISECONDS, m -> m.lagMillis(queue))
                    .description("How long the oldest due task has waited since its run time")
                    .tag("queue", queue)
                    .strongReference(true)
                    .register(registry);
        }
    }

    private double depth(String queue) {
        QueueLoads load = load();
        return load == null ? Double.NaN : load.queue(queue).due();
    }

    private double lagMillis(String queue) {
        QueueLoads load = load();
        return load == null ? Double.NaN : load.queue(queue).lag().toMillis();
    }

    private QueueLoads load() {
        try {
            QueueLoads load = statistics.load();
            failing = false;
            return load;
        } catch (RuntimeException e) {
            // Log once per outage, not on every scrape.
            if (!failing) {
                log.warn("Errand queue gauges cannot read the task table: {}", e.getMessage());
                failing = true;
            }
            return null;
        }
    }
}
