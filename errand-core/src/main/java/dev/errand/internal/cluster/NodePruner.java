package dev.errand.internal.cluster;

import dev.errand.internal.store.Micros;
import dev.errand.internal.store.Storage;
import java.sql.SQLException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's clean-up of the node registry: deletes the rows of nodes that stopped or were declared dead
 * longer ago than the node retention. Without it every restart of a node with a random id would add a row
 * that {@code ClusterAdmin.nodes()} listed for ever.
 *
 * <p>Deleting a row loses nothing that a task needs: a task pinned to a node without a row is treated as
 * pinned to an absent node (its pin policy applies, as for a dead one), and a dead node's tasks are rescued
 * through their leases. A node whose row was deleted while it was merely paused registers again at its next
 * heartbeat.
 */
final class NodePruner {

    private static final Logger log = LoggerFactory.getLogger(NodePruner.class);

    private final Storage storage;
    private final ClusterStore store;

    NodePruner(Storage storage, ClusterStore store) {
        this.storage = storage;
        this.store = store;
    }

    /** Deletes the rows of nodes gone longer than {@code retention}, in one statement; returns how many. */
    int prune(Duration retention) throws SQLException {
        int deleted =
                storage.transactions().runStatement("node pruner", c -> store.deleteGoneNodes(c, Micros.of(retention)));
        if (deleted > 0) {
            log.info(
                    "Removed {} stopped or dead nodes from the registry (gone for longer than {})", deleted, retention);
        }
        return deleted;
    }
}
