package dev.errand.internal.cluster;

import dev.errand.config.ErrandSettings;
import dev.errand.internal.cluster.ClusterStore.NodeRow;
import dev.errand.internal.store.Storage;
import java.net.InetAddress;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** This node's row in the registry: written at start, moved on at each heartbeat, marked at a graceful stop. */
final class NodeRegistry {

    private static final Logger log = LoggerFactory.getLogger(NodeRegistry.class);

    private final Storage storage;
    private final ClusterStore store;
    private final ErrandSettings settings;
    private final NodeRow.Process process;

    NodeRegistry(Storage storage, ClusterStore store, ErrandSettings settings) {
        this.storage = storage;
        this.store = store;
        this.settings = settings;
        this.process = new NodeRow.Process(host(), ProcessHandle.current().pid(), version());
    }

    /**
     * Writes the row as running now. If the row says that another process runs under this id (running, a fresh
     * heartbeat, another host or process id), logs a WARN first: two live nodes with one id share a registry
     * row and the tasks pinned to it. A restart right after a crash looks the same until the dead-node
     * timeout, so this warns and goes on rather than refusing to start.
     */
    void register(Connection c, boolean processing) throws SQLException {
        warnIfTaken(c);
        store.register(
                c,
                new NodeRow.Identity(settings.nodeId(), settings.cluster().groupsFramed()),
                new NodeRow.Flags(processing, settings.cluster().exclusive(), "running"),
                process);
    }

    /**
     * Moves the heartbeat on; if the leader declared this node dead meanwhile (a long pause), registers
     * again, since the node is evidently alive: the tasks it held were rescued and its heartbeats no longer
     * extend their leases, so nothing runs twice under one lease.
     */
    void heartbeat(Connection c, boolean processing) throws SQLException {
        if (!store.heartbeat(c, settings.nodeId(), processing)) {
            log.warn(
                    "Node {} was declared dead or removed from the registry while it ran (a pause longer than the"
                            + " dead-node timeout {}?); registering it again",
                    settings.nodeId(),
                    settings.cluster().deadNodeTimeout());
            register(c, processing);
        }
    }

    private void warnIfTaken(Connection c) throws SQLException {
        String id = settings.nodeId();
        Optional<NodeRow> found = store.node(
                c, id, dev.errand.internal.store.Micros.of(settings.cluster().deadNodeTimeout()));
        if (found.isPresent()) {
            NodeRow row = found.get();
            if ("running".equals(row.flags().state())
                    && row.times().fresh()
                    && !(java.util.Objects.equals(row.process().host(), process.host())
                            && java.util.Objects.equals(row.process().pid(), process.pid()))) {
                log.warn(
                        "Node id {} is registered as running by process {} on host {}, with a heartbeat younger than"
                                + " the dead-node timeout {}. If that process still runs, two nodes share one id:"
                                + " give each its own nodeId or nodeIdFromHost suffix. (After a crash and a quick"
                                + " restart this is the old process's row, and nothing is wrong.)",
                        id,
                        row.process().pid(),
                        row.process().host(),
                        settings.cluster().deadNodeTimeout());
            }
        }
    }

    /** Marks the row as stopped gracefully. */
    void markStopped(Connection c) throws SQLException {
        store.markStopped(c, settings.nodeId());
    }

    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return null;
        }
    }

    private static String version() {
        String version = NodeRegistry.class.getPackage().getImplementationVersion();
        return version == null ? "dev" : version;
    }
}
