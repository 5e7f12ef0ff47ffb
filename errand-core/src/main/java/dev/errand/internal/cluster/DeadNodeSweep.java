package dev.errand.internal.cluster;

import dev.errand.internal.store.ClusterStore;
import dev.errand.internal.store.Micros;
import dev.errand.internal.store.Storage;
import java.sql.Connection;
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
 *
 * <p>Two conditions, both needed: the heartbeat is older than the timeout on the database clock, and
 * this leader has watched it stay unchanged for the timeout on its own monotonic clock. The second keeps
 * a jump of the database clock's offset (a test's shiftable clock), or a leader that has just taken
 * over with a stale view, from declaring live nodes dead. The leader never declares itself dead.
 */
final class DeadNodeSweep {

    private static final Logger log = LoggerFactory.getLogger(DeadNodeSweep.class);

    /** What one sweep found: the nodes it declared dead and how many leases it ended. */
    record Result(List<String> deadNodes, int endedLeases) {}

    /** A heartbeat as this leader first saw it, on its monotonic clock. */
    private record Seen(java.time.Instant heartbeatAt, long sinceNanos) {}

    private final Storage storage;
    private final ClusterStore store;
    private final Duration timeout;
    private final String self;
    private final java.util.Map<String, Seen> seen = new java.util.HashMap<>();

    DeadNodeSweep(Storage storage, ClusterStore store, Duration timeout, String self) {
        this.storage = storage;
        this.store = store;
        this.timeout = timeout;
        this.self = self;
    }

    /**
     * Reads the running nodes' heartbeats on the caller's transaction (the leader's beat) and returns the
     * nodes that meet both conditions now; {@link #declare} them dead in a transaction of their own. A
     * read only: a beat with nobody dead costs no write.
     */
    List<String> suspects(Connection c) throws SQLException {
        long now = System.nanoTime();
        java.util.Map<String, ClusterStore.Heartbeat> beats =
                store.runningHeartbeats(c, Micros.of(timeout), storage.offsetMicros());
        seen.keySet().retainAll(beats.keySet());
        List<String> dead = new java.util.ArrayList<>();
        beats.forEach((node, beat) -> {
            Seen before = seen.get(node);
            if (before == null || !before.heartbeatAt().equals(beat.at())) {
                seen.put(node, new Seen(beat.at(), now));
            } else if (beat.stale() && !node.equals(self) && now - before.sinceNanos() >= timeout.toNanos()) {
                dead.add(node);
            }
        });
        return dead;
    }

    /**
     * Marks the suspects dead whose heartbeat is still older than the timeout, and ends the leases of the
     * tasks they held, in one transaction.
     */
    Result declare(List<String> suspects) throws SQLException {
        if (suspects.isEmpty()) {
            return new Result(List.of(), 0);
        }
        Result result = storage.transactions().run("dead-node sweep", c -> {
            long offset = storage.offsetMicros();
            List<String> marked = new java.util.ArrayList<>();
            for (String node : suspects) {
                if (store.markDead(c, node, Micros.of(timeout), offset)) {
                    marked.add(node);
                }
            }
            return new Result(marked, store.expireLeasesOf(c, marked, offset));
        });
        result.deadNodes().forEach(seen::remove);
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
