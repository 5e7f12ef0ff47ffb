package dev.errand.internal.cluster;

import dev.errand.internal.store.Micros;
import dev.errand.internal.store.Storage;
import dev.errand.node.PinPolicy;
import dev.errand.task.FailureCause;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's pin-policy chore: pending tasks pinned to a node that is not alive (dead, stopped, or never
 * registered) fall back to their group or fail, as their kind's {@link PinPolicy} says; kinds that wait
 * (the default) are left alone. The leader applies the policies of the kinds it registered.
 */
final class PinSweep {

    private static final Logger log = LoggerFactory.getLogger(PinSweep.class);
    private static final int BATCH = 500;

    private final Storage storage;
    private final ClusterStore store;
    private final Duration deadNodeTimeout;
    private final List<String> fallBackKinds;
    private final Map<String, Duration> failingKinds;

    PinSweep(Storage storage, ClusterStore store, Duration deadNodeTimeout, Map<String, PinPolicy> policies) {
        this.storage = storage;
        this.store = store;
        this.deadNodeTimeout = deadNodeTimeout;
        this.fallBackKinds = policies.entrySet().stream()
                .filter(e -> e.getValue().action() == PinPolicy.Action.FALL_BACK_TO_GROUP)
                .map(Map.Entry::getKey)
                .sorted()
                .toList();
        this.failingKinds = policies.entrySet().stream()
                .filter(e -> e.getValue().action() == PinPolicy.Action.FAIL)
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().timeout()));
    }

    /** Applies the policies once; returns how many tasks it moved or failed. */
    int sweep(NodeAgent.Hooks hooks) throws SQLException {
        long timeout = Micros.of(deadNodeTimeout);
        int changed = 0;
        if (!fallBackKinds.isEmpty()) {
            int released = storage.transactions()
                    .runStatement("pin fall-back", c -> store.unpinFromAbsentNodes(c, fallBackKinds, timeout));
            if (released > 0) {
                log.warn("{} tasks pinned to absent nodes fell back to their group", released);
            }
            changed += released;
        }
        for (Map.Entry<String, Duration> kind : failingKinds.entrySet()) {
            changed += failAbsent(hooks, kind.getKey(), kind.getValue(), timeout);
        }
        return changed;
    }

    /**
     * Fails the kind's tasks whose node stayed away, each in a transaction of its own with its failure
     * callback, as an expiry does; the writer logs each one.
     */
    private int failAbsent(NodeAgent.Hooks hooks, String kind, Duration wait, long timeout) throws SQLException {
        List<ClusterStore.PinnedTask> due = storage.transactions()
                .runStatement(
                        "pinned to absent nodes",
                        c -> store.pinnedToAbsentNodes(c, kind, Micros.of(wait), timeout, BATCH));
        int failed = 0;
        for (ClusterStore.PinnedTask pinned : due) {
            if (hooks.failPinned(pinned.task(), new FailureCause.PinnedNodeAbsent(pinned.node(), wait))) {
                failed++;
            }
        }
        return failed;
    }
}
