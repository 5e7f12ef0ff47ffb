package dev.errand.internal.engine;

import dev.errand.internal.runtime.Outage;
import dev.errand.internal.store.Storage;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this node's leases alive. It tracks every task the node holds outside a database lock —
 * claimed and waiting, running non-transactionally, or completed but not yet flushed — and extends
 * all their leases with one UPDATE per lease duration each heartbeat.
 *
 * <p>Tasks inside a transactional run are not tracked: their row is locked by the handler's
 * transaction, which a heartbeat would wait on, and rescue skips locked rows anyway.
 */
final class LeaseKeeper {

    private static final Logger log = LoggerFactory.getLogger(LeaseKeeper.class);
    private final Outage outage = new Outage(
            log,
            "Heartbeat",
            "it is tried again at each interval; leases that expire meanwhile are rescued, and fenced"
                    + " writes keep every outcome single");

    /** The longest a transaction about to lock rows waits for a heartbeat in flight. */
    private static final long HEARTBEAT_WAIT_MILLIS = 250;

    private final Storage storage;
    private final String nodeId;
    private final Map<Long, Duration> held = new ConcurrentHashMap<>();
    /** When (System.nanoTime) the last heartbeat that extended every held lease began. */
    private volatile long extendedNanos = System.nanoTime() - Duration.ofDays(1).toNanos();
    /** Held by a heartbeat from the moment it reads {@link #held} until its statements have ended. */
    private final java.util.concurrent.locks.ReentrantLock beating = new java.util.concurrent.locks.ReentrantLock();

    LeaseKeeper(Storage storage, String nodeId) {
        this.storage = storage;
        this.nodeId = nodeId;
    }

    void hold(long taskId, Duration lease) {
        held.put(taskId, lease);
    }

    void forget(long taskId) {
        held.remove(taskId);
    }

    /**
     * Forgets tasks whose rows the caller is about to lock in a transaction, and waits for a heartbeat that had
     * already read them to end. Without the wait, that heartbeat's UPDATE could reach the rows after the caller
     * locked them and wait for the caller's whole transaction, holding up every other lease of the node meanwhile.
     * Call it before taking the locks, never while holding row locks. The wait is bounded: a heartbeat that is itself
     * stuck (a database that does not answer) must not hold up the start of transactional tasks.
     */
    void forgetBeforeLocking(List<Long> taskIds) {
        taskIds.forEach(held::remove);
        try {
            if (beating.tryLock(HEARTBEAT_WAIT_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                beating.unlock();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    int size() {
        return held.size();
    }

    /**
     * When (System.nanoTime) the last heartbeat that extended every held lease began: each lease it extended runs
     * at least one lease duration from then.
     */
    long extendedNanos() {
        return extendedNanos;
    }

    /** Extends every held lease; called on the engine's heartbeat thread. */
    void heartbeat() {
        if (held.isEmpty()) {
            return;
        }
        beating.lock();
        try {
            beat();
        } finally {
            beating.unlock();
        }
    }

    private void beat() {
        long began = System.nanoTime();
        boolean all = true;
        Map<Duration, List<Long>> byLease = new HashMap<>();
        held.forEach((id, lease) ->
                byLease.computeIfAbsent(lease, l -> new ArrayList<>()).add(id));
        for (Map.Entry<Duration, List<Long>> group : byLease.entrySet()) {
            // Sorted ids: every node locks rows in the same order, which keeps deadlocks rare.
            long[] ids = group.getValue().stream()
                    .mapToLong(Long::longValue)
                    .sorted()
                    .toArray();
            try {
                int extended = storage.transactions()
                        .runStatement("heartbeat", c -> storage.tasks().heartbeat(c, ids, nodeId, group.getKey()));
                if (extended < ids.length) {
                    log.debug(
                            "Heartbeat extended {} of {} leases; the rest finished or were taken back",
                            extended,
                            ids.length);
                }
                outage.succeeded();
            } catch (SQLException e) {
                all = false;
                outage.failed(ids.length + " leases", e);
            }
        }
        if (all) {
            extendedNanos = began;
        }
    }
}
