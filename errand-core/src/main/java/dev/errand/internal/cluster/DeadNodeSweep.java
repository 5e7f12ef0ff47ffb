package dev.errand.internal.cluster;

import dev.errand.internal.store.ClusterStore;
import dev.errand.internal.store.Micros;
import dev.errand.internal.store.Storage;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's chore: declares dead the nodes whose heartbeat is older than the timeout and ends their
 * leases in the same transaction, so that the rescue sweep which follows takes their tasks at once
 * instead of after each lease. Rescue changes the lease token of what it takes, so a late commit of the
 * dead node's transactional run is still fenced off.
 */
final class DeadNodeSweep {

    private static final Logger log = LoggerFactory.getLogger(DeadNodeSweep.class);

    /** What one sweep found: the nodes it declared dead and how many leases it ended. */
    record Result(List<String> deadNodes, int endedLeases) {}

    private final Storage storage;
    private final ClusterStore store;
    private final Duration timeout;

    DeadNodeSweep(Storage storage, ClusterStore store, Duration timeout) {
        this.storage = storage;
        this.store = store;
        this.timeout = timeout;
    }

    Result sweep() throws SQLException {
        Result result = storage.transactions().run("dead-node sweep", c -> {
            long offset = storage.offsetMicros();
            List<String> dead = store.markDead(c, Micros.of(timeout), offset);
            return new Result(dead, store.expireLeasesOf(c, dead, offset));
        });
        if (!result.deadNodes().isEmpty()) {
            log.warn(
                    "Nodes {} sent no heartbeat for {}: declared dead; rescuing the {} tasks they held now",
                    result.deadNodes(),
                    timeout,
                    result.endedLeases());
        }
        return result;
    }
}
