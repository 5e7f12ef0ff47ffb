package dev.errand.spring.actuate;

import dev.errand.Errand;
import dev.errand.admin.QueueLoads;
import dev.errand.node.NodeHealth;
import dev.errand.spring.TaskStatistics;
import java.util.Objects;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Health of this Errand node, shown as {@code errand} under {@code /actuator/health}.
 *
 * <ul>
 *   <li>{@code DOWN} if the task table cannot be read; if processing is on and the engine is not running
 *       (before start-up finished, or after shutdown began); or if one of the engine's long-lived threads
 *       (a queue's poller, the completer, the heartbeat, rescue) keeps failing, as
 *       {@link Errand#health()} reports. The detail {@code problems} then says which, and why.</li>
 *   <li>{@code UP} otherwise. Failed and overdue tasks are reported as details but do not turn the node
 *       {@code DOWN}: restarting the node would not repair them, and a platform that restarts unhealthy
 *       nodes would only add churn. Alert on the details or on the metrics instead.</li>
 * </ul>
 *
 * <p>Details: {@code nodeId}, {@code running}, {@code processingEnabled}, {@code database}
 * ({@code reachable}/{@code unreachable}), {@code failedTasks}, {@code overdueTasks} (pending longer than
 * {@code errand.stats.overdue-after} past their run time) and {@code overdueAfter}. The counts come from
 * {@link TaskStatistics} and may be up to {@code errand.stats.cache-duration} old.
 */
public final class ErrandHealthIndicator implements HealthIndicator {

    private final Errand errand;
    private final TaskStatistics statistics;

    /** Creates the indicator. */
    public ErrandHealthIndicator(Errand errand, TaskStatistics statistics) {
        this.errand = Objects.requireNonNull(errand, "errand must not be null");
        this.statistics = Objects.requireNonNull(statistics, "statistics must not be null");
    }

    /** Checks the engine and the task table. */
    @Override
    public Health health() {
        boolean processing = errand.settings().processingEnabled();
        boolean running = errand.isRunning();
        Health.Builder health = new Health.Builder()
                .withDetail("nodeId", errand.settings().nodeId())
                .withDetail("running", running)
                .withDetail("processingEnabled", processing);
        NodeHealth node = errand.health();
        if (!node.healthy()) {
            health.withDetail("problems", node.problems());
        }
        QueueLoads load;
        try {
            load = statistics.load();
        } catch (RuntimeException unreachable) {
            return health.down(unreachable)
                    .withDetail("database", "unreachable")
                    .build();
        }
        health.withDetail("database", "reachable")
                .withDetail("failedTasks", load.failed())
                .withDetail("overdueTasks", load.overdue())
                .withDetail("overdueAfter", statistics.overdueAfter().toString());
        return (processing && !running || !node.healthy() ? health.down() : health.up()).build();
    }
}
