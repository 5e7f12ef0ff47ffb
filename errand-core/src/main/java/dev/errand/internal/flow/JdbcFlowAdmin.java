package dev.errand.internal.flow;

import dev.errand.error.ErrandException;
import dev.errand.flow.FlowAdmin;
import dev.errand.flow.FlowLimit;
import dev.errand.flow.FlowLimits;
import dev.errand.internal.store.Storage;
import dev.errand.task.TaskKind;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@link FlowAdmin} on the flow tables. */
public final class JdbcFlowAdmin implements FlowAdmin {

    private final Storage storage;
    private final FlowControl flow;

    /**
     * Creates the admin API of a node.
     *
     * @param storage the task table and its transactions
     * @param flow the node's flow control, refreshed at once after a change
     */
    public JdbcFlowAdmin(Storage storage, FlowControl flow) {
        this.storage = storage;
        this.flow = flow;
    }

    @Override
    public List<FlowLimit> limits() {
        try {
            return storage.transactions().run("flow limits", connection -> {
                List<FlowLimit> limits = new ArrayList<>();
                for (FlowStore.LimitRow row : flow.store().limits(connection).values()) {
                    boolean perKind = row.effective() != null;
                    limits.add(new FlowLimit(
                            row.kind(),
                            new FlowLimit.Value(row.declared(), row.override()),
                            new FlowLimit.Value(row.declaredPerKey(), row.overridePerKey()),
                            perKind
                                    ? flow.store().slotsInUse(connection, row.kind())
                                    : flow.store().keySlotsInUse(connection, row.kind()),
                            flow.store().pendingDue(connection, row.kind(), perKind, storage.offsetMicros())));
                }
                return limits;
            });
        } catch (SQLException e) {
            throw new ErrandException("read the flow limits", e);
        }
    }

    @Override
    public void changeLimit(String kind, int maxRunning) {
        change(
                kind,
                FlowLimits.requireConcurrencyLimit(maxRunning, "The concurrency limit"),
                FlowStore.Source.OVERRIDE);
    }

    @Override
    public void changeLimitPerKey(String kind, int maxRunning) {
        change(
                kind,
                FlowLimits.requireConcurrencyLimit(maxRunning, "The per-key limit"),
                FlowStore.Source.OVERRIDE_PER_KEY);
    }

    private void change(String kind, int limit, FlowStore.Source source) {
        TaskKind.requireValidName(kind);
        try {
            storage.transactions().run("flow limit change", connection -> {
                Map<String, FlowStore.LimitRow> rows = flow.store().limits(connection);
                FlowStore.LimitRow row = rows.get(kind);
                if (row == null && !flow.registers(kind)) {
                    throw new IllegalArgumentException("Kind '" + kind + "' is not registered on this node and has no"
                            + " flow limit; check the name, or change it from a node that registers the kind");
                }
                boolean perKey = source == FlowStore.Source.OVERRIDE_PER_KEY;
                if (row != null && (perKey ? row.effective() != null : row.effectivePerKey() != null)) {
                    throw new IllegalArgumentException("Kind '" + kind + "' has a "
                            + (perKey ? "concurrency" : "per-key") + " limit in force, and a kind has one of them;"
                            + " remove that one first (resetLimits, or drop it from the definition)");
                }
                flow.store().set(connection, kind, source, limit);
                return null;
            });
            flow.refresh();
        } catch (SQLException e) {
            throw new ErrandException("change the flow limit of kind '" + kind + "'", e);
        }
    }

    @Override
    public void resetLimits(String kind) {
        TaskKind.requireValidName(kind);
        try {
            storage.transactions().run("flow limit reset", connection -> {
                flow.store().set(connection, kind, FlowStore.Source.OVERRIDE, null);
                flow.store().set(connection, kind, FlowStore.Source.OVERRIDE_PER_KEY, null);
                return null;
            });
            flow.refresh();
        } catch (SQLException e) {
            throw new ErrandException("reset the flow limits of kind '" + kind + "'", e);
        }
    }
}
