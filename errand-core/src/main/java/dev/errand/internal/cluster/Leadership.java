package dev.errand.internal.cluster;

import dev.errand.internal.store.Micros;
import dev.errand.internal.store.Storage;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader lease: one row, taken by an UPDATE that succeeds only if the lease is free, expired or
 * already this node's. Any node can win; a dead leader's lease expires and the next node to try takes it.
 */
final class Leadership {

    /** The lease's name in the leader table. */
    static final String MAINTENANCE = "maintenance";

    private static final Logger log = LoggerFactory.getLogger(Leadership.class);

    private final Storage storage;
    private final ClusterStore store;
    private final String nodeId;
    private final Duration lease;
    private volatile boolean leading;

    Leadership(Storage storage, ClusterStore store, String nodeId, Duration lease) {
        this.storage = storage;
        this.store = store;
        this.nodeId = nodeId;
        this.lease = lease;
    }

    /**
     * Takes or renews the lease on the caller's transaction, so that it rides with the node's heartbeat in
     * one commit; {@link #settle} it once that transaction committed.
     *
     * @return whether this node leads once the transaction commits
     */
    boolean hold(Connection c) throws SQLException {
        return store.holdLease(c, MAINTENANCE, nodeId, Micros.of(lease));
    }

    /** Records the outcome of a committed {@link #hold}; a rolled-back one is never settled. */
    void settle(boolean now) {
        if (now != leading) {
            log.info(now ? "Node {} is the leader now" : "Node {} is no longer the leader", nodeId);
        }
        leading = now;
    }

    /** Whether this node held the lease at its last try. */
    boolean leading() {
        return leading;
    }

    /** Gives the lease up at a graceful stop, so that another node takes over at its next try. */
    void release() throws SQLException {
        if (leading) {
            storage.transactions().runStatement("leader release", c -> {
                store.releaseLease(c, MAINTENANCE, nodeId);
                return null;
            });
            leading = false;
        }
    }
}
