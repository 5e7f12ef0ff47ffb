package dev.errand.admin;

import java.time.Duration;
import java.time.Instant;

/**
 * The task counts as stored by the last count of the cluster, with when they were counted: what
 * {@link TaskAdmin#countsSnapshot(Duration, Duration)} returns instead of scanning the table on every read.
 *
 * @param counts the counts as they were at {@code countedAt} (their {@code databaseTime} is {@code countedAt})
 * @param countDuration how long the count took, which tells what counting again would cost
 * @param readAt the database's time when the snapshot was read
 * @param recounting whether another caller was counting again when this snapshot was read, so that it was
 *     returned older than the age asked for instead of being counted twice
 */
public record TaskCountsSnapshot(TaskCounts counts, Duration countDuration, Instant readAt, boolean recounting) {

    /** Checks the parts. */
    public TaskCountsSnapshot {
        if (counts == null || countDuration == null || readAt == null) {
            throw new IllegalArgumentException(
                    "a snapshot needs its counts, how long they took to count and the time it was read");
        }
    }

    /** The database's time of the count. */
    public Instant countedAt() {
        return counts.databaseTime();
    }

    /** How old the counts were when they were read, on the database's clock; never negative. */
    public Duration age() {
        Duration age = Duration.between(countedAt(), readAt);
        return age.isNegative() ? Duration.ZERO : age;
    }
}
