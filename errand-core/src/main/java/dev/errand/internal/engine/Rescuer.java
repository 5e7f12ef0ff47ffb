package dev.errand.internal.engine;

import dev.errand.internal.outcome.Ending;
import dev.errand.internal.store.ExpiredLease;
import dev.errand.internal.store.Storage;
import java.sql.SQLException;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds running tasks whose lease expired — their worker was lost — and retries or fails them as
 * their kind says. Each task is locked with {@code SKIP LOCKED} in its own transaction, so every node
 * can run the rescuer at once, and a transactional run whose handler still holds its row lock is never
 * taken. A retry is written under that lock; a failure is written afterwards, in the transaction of
 * the kind's failure callback, fenced by the lease token so that only one node fails the task.
 */
final class Rescuer {

    private static final Logger log = LoggerFactory.getLogger(Rescuer.class);
    private static final int MAX_PER_SWEEP = 1_000;

    private final Storage storage;
    private final Kinds kinds;
    private final Settler settler;
    private final Observers observers;

    Rescuer(Storage storage, Kinds kinds, Settler settler, Observers observers) {
        this.storage = storage;
        this.kinds = kinds;
        this.settler = settler;
        this.observers = observers;
    }

    /**
     * Rescues what has expired now.
     *
     * @return how many tasks it rescued
     * @throws SQLException if the database cannot be read; the sweep stops and runs again later
     */
    int sweep() throws SQLException {
        int rescued = 0;
        Set<String> lostNodes = new TreeSet<>();
        try {
            Optional<String> lost;
            while (rescued < MAX_PER_SWEEP && (lost = rescueOne()).isPresent()) {
                lostNodes.add(lost.get());
                rescued++;
            }
        } finally {
            if (rescued > 0) {
                log.warn("Rescued {} tasks whose worker was lost (lease expired; nodes {})", rescued, lostNodes);
            }
        }
        return rescued;
    }

    /** Rescues one task; returns the node that lost it, or empty if nothing has expired. */
    private Optional<String> rescueOne() throws SQLException {
        Optional<Rescue> locked = storage.transactions().run("rescue", connection -> {
            Optional<ExpiredLease> expired = storage.tasks().lockOneExpired(connection);
            if (expired.isEmpty()) {
                return Optional.empty();
            }
            ExpiredLease lease = expired.get();
            RegisteredKind kind = kinds.of(lease.task());
            Ending lost = new Ending.WorkerLost(lease.leaseOwner());
            boolean retried = settler.settleInTransaction(connection, lease.task(), kind, lost);
            return Optional.of(new Rescue(lease, kind, lost, retried));
        });
        if (locked.isEmpty()) {
            return Optional.empty();
        }
        Rescue rescue = locked.get();
        log.debug(
                "Rescued task {} ({}) from lost node {}: {}",
                rescue.lease().task().id(),
                rescue.lease().task().kind(),
                rescue.lease().leaseOwner(),
                rescue.retried() ? "retrying" : "failing");
        observers.stats().recordRescued();
        observers
                .listener()
                .rescued(rescue.lease().task().kind(), rescue.lease().task().queue());
        if (!rescue.retried()) {
            // Outside the lock's transaction, so that the failure callback gets a transaction of its own.
            settler.settle(rescue.lease().task(), rescue.kind(), rescue.ending());
        }
        return Optional.of(rescue.lease().leaseOwner());
    }

    private record Rescue(ExpiredLease lease, RegisteredKind kind, Ending ending, boolean retried) {}
}
