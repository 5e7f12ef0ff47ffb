package dev.errand.internal.flow;

import dev.errand.config.Names;
import dev.errand.error.ErrandException;
import dev.errand.flow.FlowAdmin;
import dev.errand.flow.FlowLimit;
import dev.errand.flow.FlowLimits;
import dev.errand.flow.QueueLimit;
import dev.errand.flow.RateLimit;
import dev.errand.internal.cluster.ControlAudit;
import dev.errand.internal.store.Storage;
import dev.errand.task.TaskKind;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** {@link FlowAdmin} on the flow tables. */
public final class JdbcFlowAdmin implements FlowAdmin {

    private final Storage storage;
    private final FlowControl flow;
    private final ControlAudit audit;

    /**
     * Creates the admin API of a node.
     *
     * @param storage the task table and its transactions
     * @param flow the node's flow control, refreshed at once after a change
     * @param audit where each change is recorded, in the change's transaction
     */
    public JdbcFlowAdmin(Storage storage, FlowControl flow, ControlAudit audit) {
        this.storage = storage;
        this.flow = flow;
        this.audit = audit;
    }

    @Override
    public FlowAdmin as(String actor) {
        return new JdbcFlowAdmin(storage, flow, audit.as(actor));
    }

    @Override
    public List<FlowLimit> limits() {
        try {
            return storage.transactions().run("flow limits", connection -> {
                Map<String, FlowStore.LimitRow> rows = flow.store().limits(connection);
                Map<String, RateLimit[]> rates = flow.store().rateRows(connection);
                Map<String, RateLimit[]> keyRates = flow.store().keyRateRows(connection);
                List<FlowLimit> limits = new ArrayList<>();
                TreeSet<String> kinds = new TreeSet<>(rows.keySet());
                kinds.addAll(rates.keySet());
                kinds.addAll(keyRates.keySet());
                for (String kind : kinds) {
                    limits.add(limit(connection, kind, rows.get(kind), rates.get(kind), keyRates.get(kind)));
                }
                return limits;
            });
        } catch (SQLException e) {
            throw new ErrandException("read the flow limits", e);
        }
    }

    private FlowLimit limit(
            Connection connection, String kind, FlowStore.LimitRow row, RateLimit[] rate, RateLimit[] keyRate)
            throws SQLException {
        FlowLimit.Value concurrency =
                row == null ? new FlowLimit.Value(null, null) : new FlowLimit.Value(row.declared(), row.override());
        FlowLimit.Value perKey = row == null
                ? new FlowLimit.Value(null, null)
                : new FlowLimit.Value(row.declaredPerKey(), row.overridePerKey());
        FlowLimit.Rate rates = rate == null ? new FlowLimit.Rate(null, null) : new FlowLimit.Rate(rate[0], rate[1]);
        FlowLimit.Rate keyRates =
                keyRate == null ? new FlowLimit.Rate(null, null) : new FlowLimit.Rate(keyRate[0], keyRate[1]);
        int inUse;
        boolean all = true;
        if (concurrency.inForce() != null) {
            inUse = flow.store().slotsInUse(connection, kind);
        } else if (perKey.inForce() != null) {
            inUse = flow.store().keySlotsInUse(connection, kind);
            all = false;
        } else if (rates.inForce() == null) {
            RateLimit inForce = keyRates.inForce();
            inUse = flow.store()
                    .keyRateSlotsInUse(
                            connection,
                            kind,
                            inForce.starts(),
                            inForce.period().toNanos() / 1_000,
                            storage.offsetMicros());
            all = false;
        } else {
            RateLimit inForce = rates.inForce();
            inUse = flow.store()
                    .rateSlotsInUse(
                            connection,
                            kind,
                            inForce.starts(),
                            inForce.period().toNanos() / 1_000,
                            storage.offsetMicros());
        }
        return new FlowLimit(
                kind,
                concurrency,
                perKey,
                rates,
                keyRates,
                inUse,
                flow.store().pendingDue(connection, kind, all, storage.offsetMicros()));
    }

    @Override
    public List<QueueLimit> queueLimits() {
        try {
            return storage.transactions().run("flow queue limits", connection -> {
                List<QueueLimit> limits = new ArrayList<>();
                Map<String, RateLimit[]> rates = flow.store().queueRateRows(connection);
                for (Map.Entry<String, Integer[]> row :
                        flow.store().queueLimits(connection).entrySet()) {
                    RateLimit[] rateRow = rates.get(row.getKey());
                    FlowLimit.Rate rate = rateRow == null
                            ? new FlowLimit.Rate(null, null)
                            : new FlowLimit.Rate(rateRow[0], rateRow[1]);
                    RateLimit inForce = rate.inForce();
                    limits.add(new QueueLimit(
                            row.getKey(),
                            new FlowLimit.Value(row.getValue()[0], row.getValue()[1]),
                            rate,
                            flow.store().queueSlotsInUse(connection, row.getKey()),
                            inForce == null
                                    ? 0
                                    : flow.store()
                                            .queueRateSlotsInUse(
                                                    connection,
                                                    row.getKey(),
                                                    inForce.starts(),
                                                    inForce.period().toNanos() / 1_000,
                                                    storage.offsetMicros()),
                            flow.store().queuePendingDue(connection, row.getKey(), storage.offsetMicros())));
                }
                return limits;
            });
        } catch (SQLException e) {
            throw new ErrandException("read the queue limits", e);
        }
    }

    @Override
    public void changeLimit(String kind, int maxRunning) {
        change(kind, Kind.CONCURRENCY, FlowLimits.requireConcurrencyLimit(maxRunning, "The concurrency limit"), null);
    }

    @Override
    public void changeLimitPerKey(String kind, int maxRunning) {
        change(kind, Kind.PER_KEY, FlowLimits.requireConcurrencyLimit(maxRunning, "The per-key limit"), null);
    }

    @Override
    public void changeRateLimit(String kind, RateLimit limit) {
        if (limit == null) {
            throw new IllegalArgumentException("The rate limit must not be null: pass new RateLimit(starts, period),"
                    + " or call resetLimits to go back to the declared one");
        }
        change(kind, Kind.RATE, 0, limit);
    }

    @Override
    public void changeRateLimitPerKey(String kind, RateLimit limit) {
        if (limit == null) {
            throw new IllegalArgumentException("The per-key rate limit must not be null: pass new RateLimit(starts,"
                    + " period), or call resetLimits to go back to the declared one");
        }
        change(kind, Kind.RATE_PER_KEY, 0, limit);
    }

    /** Which of a kind's limits a change sets. */
    private enum Kind {
        CONCURRENCY("concurrency"),
        PER_KEY("per-key"),
        RATE("rate"),
        RATE_PER_KEY("per-key rate");

        private final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    private void change(String kind, Kind which, int limit, RateLimit rate) {
        TaskKind.requireValidName(kind);
        try {
            storage.transactions().run("flow limit change", connection -> {
                FlowStore.LimitRow row = flow.store().limits(connection).get(kind);
                RateLimit[] rates = flow.store().rateRows(connection).get(kind);
                RateLimit[] keyRates = flow.store().keyRateRows(connection).get(kind);
                if (row == null && rates == null && keyRates == null && !flow.registers(kind)) {
                    throw new IllegalArgumentException("Kind '" + kind + "' is not registered on this node and has no"
                            + " flow limit; check the name, or change it from a node that registers the kind");
                }
                Kind other = null;
                if (row != null && row.effective() != null && which != Kind.CONCURRENCY) {
                    other = Kind.CONCURRENCY;
                } else if (row != null && row.effectivePerKey() != null && which != Kind.PER_KEY) {
                    other = Kind.PER_KEY;
                } else if (rates != null && which != Kind.RATE) {
                    other = Kind.RATE;
                } else if (keyRates != null && which != Kind.RATE_PER_KEY) {
                    other = Kind.RATE_PER_KEY;
                }
                if (other != null) {
                    throw new IllegalArgumentException("Kind '" + kind + "' has a " + other.label + " limit in force,"
                            + " and a kind has one flow limit; remove that one first (resetLimits, or drop it from the"
                            + " definition) before setting a " + which.label + " limit");
                }
                switch (which) {
                    case CONCURRENCY -> flow.store().set(connection, kind, FlowStore.Source.OVERRIDE, limit);
                    case PER_KEY -> flow.store().set(connection, kind, FlowStore.Source.OVERRIDE_PER_KEY, limit);
                    case RATE ->
                        flow.store()
                                .setRate(
                                        connection,
                                        kind,
                                        true,
                                        rate.starts(),
                                        rate.period().toMillis());
                    case RATE_PER_KEY ->
                        flow.store()
                                .setRate(
                                        connection,
                                        kind,
                                        FlowStore.RateColumns.OVERRIDE_PER_KEY,
                                        rate.starts(),
                                        rate.period().toMillis());
                }
                audit.record(
                        connection,
                        "change-flow-limit",
                        "kind:" + kind,
                        rate != null
                                ? which.label.replace(' ', '-') + "=" + rate.starts() + " per " + rate.period()
                                : which.label + "=" + limit);
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
                flow.store().setRate(connection, kind, true, null, 0);
                flow.store().setRate(connection, kind, FlowStore.RateColumns.OVERRIDE_PER_KEY, null, 0);
                audit.record(connection, "reset-flow-limits", "kind:" + kind, null);
                return null;
            });
            flow.refresh();
        } catch (SQLException e) {
            throw new ErrandException("reset the flow limits of kind '" + kind + "'", e);
        }
    }

    @Override
    public void changeQueueRateLimit(String queue, RateLimit limit) {
        Names.require("Queue name", queue, 100);
        if (limit == null) {
            throw new IllegalArgumentException("The rate limit of queue '" + queue + "' must not be null: pass new"
                    + " RateLimit(starts, period), or call resetQueueLimit to go back to the declared one");
        }
        try {
            storage.transactions().run("flow queue rate change", connection -> {
                if (!flow.serves(queue) && !flow.store().queueLimits(connection).containsKey(queue)) {
                    throw new IllegalArgumentException("Queue '" + queue + "' is not served by this node and has no"
                            + " limit; check the name, or change it from a node that declares the queue");
                }
                flow.store()
                        .setQueueRate(
                                connection,
                                queue,
                                true,
                                limit.starts(),
                                limit.period().toMillis());
                audit.record(
                        connection,
                        "change-queue-limit",
                        "queue:" + queue,
                        "rate=" + limit.starts() + " per " + limit.period());
                return null;
            });
            flow.refresh();
        } catch (SQLException e) {
            throw new ErrandException("change the rate limit of queue '" + queue + "'", e);
        }
    }

    @Override
    public void changeQueueLimit(String queue, int maxRunning) {
        Names.require("Queue name", queue, 100);
        int limit = FlowLimits.requireConcurrencyLimit(maxRunning, "The concurrency limit of queue '" + queue + "'");
        try {
            storage.transactions().run("flow queue limit change", connection -> {
                if (!flow.serves(queue) && !flow.store().queueLimits(connection).containsKey(queue)) {
                    throw new IllegalArgumentException("Queue '" + queue + "' is not served by this node and has no"
                            + " limit; check the name, or change it from a node that declares the queue");
                }
                flow.store().setQueue(connection, queue, true, limit);
                audit.record(connection, "change-queue-limit", "queue:" + queue, "concurrency=" + limit);
                return null;
            });
            flow.refresh();
        } catch (SQLException e) {
            throw new ErrandException("change the concurrency limit of queue '" + queue + "'", e);
        }
    }

    @Override
    public void resetQueueLimit(String queue) {
        Names.require("Queue name", queue, 100);
        try {
            storage.transactions().run("flow queue limit reset", connection -> {
                flow.store().setQueue(connection, queue, true, null);
                flow.store().setQueueRate(connection, queue, true, null, 0);
                audit.record(connection, "reset-queue-limit", "queue:" + queue, null);
                return null;
            });
            flow.refresh();
        } catch (SQLException e) {
            throw new ErrandException("reset the limits of queue '" + queue + "'", e);
        }
    }
}
