package dev.errand.spring;

import dev.errand.admin.QueueLoads;
import dev.errand.admin.TaskAdmin;
import dev.errand.admin.TaskCounts;
import dev.errand.config.TimeLimits;
import dev.errand.error.ErrandException;
import java.time.Duration;
import java.util.function.Supplier;
import org.springframework.dao.DataAccessResourceFailureException;

/**
 * The task counts that the health indicator, the actuator endpoint and the queue gauges show, read through
 * Errand's {@link TaskAdmin} and cached for {@code cacheDuration}, so that frequent health checks and metric
 * scrapes cost at most one read per period. The SQL and the database clock belong to the core; this class
 * only caches. Thread-safe.
 */
public final class TaskStatistics {

    private final Duration overdueAfter;
    private final Cached<QueueLoads> load;
    private final Cached<TaskCounts> counts;

    /**
     * Creates the statistics.
     *
     * @param admin the admin API of the node whose table is read, {@code errand.admin()}
     * @param cacheDuration how long results are reused; zero reads the table every time, and anything past
     *     about 292 years (such as {@code ChronoUnit.FOREVER.getDuration()}) reads it once
     * @param overdueAfter how long past its {@code run_at} a pending task must wait to count as overdue: zero to
     *     36,500 days ({@link TimeLimits#MAX_DURATION}), as {@link TaskAdmin#counts(Duration)} takes it
     * @throws IllegalArgumentException if an argument is null, a duration is negative, or {@code overdueAfter}
     *     is longer than 36,500 days
     */
    public TaskStatistics(TaskAdmin admin, Duration cacheDuration, Duration overdueAfter) {
        if (admin == null) {
            throw new IllegalArgumentException("admin must not be null: pass errand.admin()");
        }
        this.overdueAfter = TimeLimits.requireDuration("overdueAfter", overdueAfter);
        requireNotNegative("cacheDuration", cacheDuration);
        this.load = new Cached<>(cacheDuration, () -> admin.load(overdueAfter));
        this.counts = new Cached<>(cacheDuration, () -> admin.counts(overdueAfter));
    }

    /**
     * Due tasks per queue, failed and overdue tasks: cheap queries on the table's partial indexes.
     *
     * @throws org.springframework.dao.DataAccessException if the database cannot be read
     */
    public QueueLoads load() {
        return load.get();
    }

    /**
     * Every task counted by state, kind and queue, with the due and overdue ones among the pending: one
     * statement, so the numbers agree with each other.
     *
     * @throws org.springframework.dao.DataAccessException if the database cannot be read
     */
    public TaskCounts overview() {
        return counts.get();
    }

    /** How long past its {@code run_at} a pending task waits before it counts as overdue. */
    public Duration overdueAfter() {
        return overdueAfter;
    }

    private static Duration requireNotNegative(String name, Duration value) {
        if (value == null || value.isNegative()) {
            throw new IllegalArgumentException(name + " must be zero or positive, was " + value);
        }
        return value;
    }

    /** A value read at most once per period; a failed read is not cached. */
    private static final class Cached<T> {
        private final long ttlNanos;
        private final Supplier<T> query;
        private T value;
        private long readAt;

        Cached(Duration ttl, Supplier<T> query) {
            this.ttlNanos = TimeLimits.nanosOf(ttl);
            this.query = query;
        }

        // Synchronized: concurrent scrapes wait for one read instead of each querying the database.
        synchronized T get() {
            long now = System.nanoTime();
            if (value == null || now - readAt >= ttlNanos) {
                try {
                    value = query.get();
                } catch (ErrandException e) {
                    throw new DataAccessResourceFailureException(
                            "Errand could not read task statistics: " + e.getMessage(), e);
                }
                readAt = System.nanoTime();
            }
            return value;
        }
    }
}
