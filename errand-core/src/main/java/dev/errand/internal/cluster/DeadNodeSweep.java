package dev.errand.internal.cluster;

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

    /**
     * What one sweep did: the nodes it declared dead, how many leases it ended (theirs, and those of
     * earlier dead nodes whose rows were locked before), and the dead nodes that still hold live leases,
     * because some of their rows were locked this time or under an earlier leader.
     */
    record Result(List<String> deadNodes, int endedLeases, List<String> unreleased) {}

    /** A heartbeat as this leader first saw it, on its monotonic clock. */
    private record Seen(java.time.Instant heartbeatAt, long sinceNanos) {}

    private final Storage storage;
    private final ClusterStore store;
    private final Duration timeout;
    private final String self;
    /** Written by the beat ({@link #suspects}) and by the dead-node sweep duty ({@link #declare}). */
    private final java.util.Map<String, Seen> seen = new java.util.concurrent.ConcurrentHashMap<>();
    /**
     * Dead nodes whose leases this leader could not all end: a row locked at the sweep is skipped, not
     * waited for, and would otherwise keep its task until its own lease ran out. The lock is often a
     * moment's (another statement's scan passing the row), so each beat tries again, as long as the node
     * stays dead and holds a live lease. A node that comes back is dropped: its run goes on.
     */
    private List<String> unreleased = List.of();

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
        java.util.Map<String, ClusterStore.Heartbeat> beats = store.runningHeartbeats(c, Micros.of(timeout));
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
     * Takes over from an earlier leader the dead nodes that still hold live leases, so that their skipped
     * rows are tried again from the next {@link #declare} on: called once each time this node becomes the
     * leader.
     */
    void adoptUnreleased() throws SQLException {
        unreleased = storage.transactions().run("dead-node leases", c -> store.deadHoldingLiveLeases(c));
        if (!unreleased.isEmpty()) {
            log.info("Dead nodes {} still hold leases on running tasks; ending them from the next beat on", unreleased);
        }
    }

    /**
     * Marks the suspects dead whose heartbeat is still older than the timeout, and ends the leases of the
     * tasks they held, in one transaction. The rows that were locked at that moment keep their leases; the
     * next calls try them again for as long as their node stays dead (see {@link #unreleased}).
     */
    Result declare(List<String> suspects) throws SQLException {
        if (suspects.isEmpty() && unreleased.isEmpty()) {
            return new Result(List.of(), 0, List.of());
        }
        List<String> before = unreleased;
        Result result = storage.transactions().run("dead-node sweep", c -> {
            List<String> marked = new java.util.ArrayList<>();
            for (String node : suspects) {
                if (store.markDead(c, node, Micros.of(timeout))) {
                    marked.add(node);
                }
            }
            List<String> owners = new java.util.ArrayList<>(marked);
            for (String node : store.stillDead(c, before)) {
                if (!owners.contains(node)) {
                    owners.add(node);
                }
            }
            int ended = store.expireLeasesOf(c, owners);
            return new Result(marked, ended, store.deadHoldingLiveLeases(c));
        });
        unreleased = result.unreleased();
        result.deadNodes().forEach(seen::remove);
        if (!result.deadNodes().isEmpty()) {
            log.warn(
                    "Nodes {} sent no heartbeat for {}: declared dead; rescuing the {} tasks they held now",
                    result.deadNodes(),
                    timeout,
                    result.endedLeases());
        } else if (result.endedLeases() > 0) {
            log.warn(
                    "Dead nodes {}: {} more of their tasks, locked at the last sweep, are free now; rescuing them",
                    before,
                    result.endedLeases());
        }
        if (!unreleased.isEmpty() && !unreleased.equals(before)) {
            log.info(
                    "Dead nodes {} still hold leases on tasks whose rows are locked; trying again at each beat",
                    unreleased);
        }
        return result;
    }
}
