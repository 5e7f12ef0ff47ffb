package dev.errand.console.api;

import dev.errand.admin.TaskAdmin;
import dev.errand.admin.TaskCountsSnapshot;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The overview's counts: the cluster's stored snapshot ({@link TaskAdmin#countsSnapshot}), counted again when it
 * is older than 50 times what its last count took, and never older than the configured maximum. So a small
 * table is counted on every refresh, and a table of a million tasks, whose count takes a second, at most once
 * in the maximum age. A count that takes 100 ms or more runs on a thread of its own while the page shows the
 * previous counts with their age, so that no refresh waits for it.
 */
final class OverviewCounts {

    /** How many times the last count's duration the counts may age before they are counted again. */
    static final int AGE_PER_COUNT_TIME = 50;

    /** A count that took this long or more is run in the background next time. */
    static final Duration SLOW_COUNT = Duration.ofMillis(100);

    private static final Logger LOG = LoggerFactory.getLogger(OverviewCounts.class);

    private final TaskAdmin admin;
    private final Duration overdueAfter;
    private final Duration maxAge;
    private final AtomicBoolean refreshing = new AtomicBoolean();
    private volatile Held held;

    OverviewCounts(TaskAdmin admin, Duration overdueAfter, Duration maxAge) {
        this.admin = admin;
        this.overdueAfter = overdueAfter;
        this.maxAge = maxAge;
    }

    /** The counts to show, with their age now. */
    Shown get() {
        Held current = held;
        if (current == null) {
            return refresh().shown(false);
        }
        if (current.age().compareTo(allowedAge(current.snapshot)) <= 0) {
            return current.shown(false);
        }
        if (current.snapshot.countDuration().compareTo(SLOW_COUNT) < 0) {
            return refresh().shown(false);
        }
        if (refreshing.compareAndSet(false, true)) {
            Thread thread = new Thread(this::refreshInBackground, "errand-console-counts");
            thread.setDaemon(true);
            thread.start();
        }
        return current.shown(true);
    }

    private Duration allowedAge(TaskCountsSnapshot snapshot) {
        Duration scaled = snapshot.countDuration().multipliedBy(AGE_PER_COUNT_TIME);
        return scaled.compareTo(maxAge) < 0 ? scaled : maxAge;
    }

    private Held refresh() {
        Held current = held;
        TaskCountsSnapshot snapshot =
                admin.countsSnapshot(overdueAfter, current == null ? maxAge : allowedAge(current.snapshot));
        Held next = new Held(snapshot, System.nanoTime());
        held = next;
        return next;
    }

    private void refreshInBackground() {
        try {
            refresh();
        } catch (RuntimeException e) {
            // The page keeps showing the previous counts, whose age grows; the next refresh tries again.
            LOG.warn("Errand console: counting the tasks for the overview failed: {}", e.toString(), e);
        } finally {
            refreshing.set(false);
        }
    }

    /**
     * The counts as the page shows them.
     *
     * @param snapshot the stored counts
     * @param age how old they are now
     * @param recounting whether they are being counted again
     */
    record Shown(TaskCountsSnapshot snapshot, Duration age, boolean recounting) {}

    /** A snapshot and the {@link System#nanoTime()} it was read at. */
    private record Held(TaskCountsSnapshot snapshot, long readNanos) {
        Duration age() {
            return snapshot.age().plusNanos(System.nanoTime() - readNanos);
        }

        Shown shown(boolean countingHere) {
            return new Shown(snapshot, age(), countingHere || snapshot.recounting());
        }
    }
}
