package dev.errand.internal.flow;

import dev.errand.flow.RateLimit;
import dev.errand.internal.store.Dialect;
import dev.errand.internal.store.States;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The flow control tables' SQL: the limits ({@code flow_limit}) and their slots ({@code flow_slot}). Each
 * method runs on the caller's connection and transaction.
 */
final class FlowStore {

    /** Which column of a limit row a write sets. */
    enum Source {
        /** The limit a node's {@code TaskDefinition} declares. */
        DECLARED("declared_limit"),
        /** The run-time change made through the admin API. */
        OVERRIDE("override_limit"),
        /** The per-key limit a node's {@code TaskDefinition} declares. */
        DECLARED_PER_KEY("declared_per_key"),
        /** The run-time change of the per-key limit. */
        OVERRIDE_PER_KEY("override_per_key");

        private final String column;

        Source(String column) {
            this.column = column;
        }
    }

    /**
     * A slot locked by a claim.
     *
     * @param slotNo its number, 1 to the limit
     * @param taskId the first task of the chain that took it last, or null
     * @param leaseToken the lease token of that chain's claim
     * @param chain the chain's other tasks, in the order they run (empty for a chain of one)
     */
    record LockedSlot(int slotNo, Long taskId, long leaseToken, long[] chain) {

        /** Every task of the chain that took the slot last: the slot is held while any of them runs with the token. */
        long[] holders() {
            if (taskId == null) {
                return new long[0];
            }
            long[] all = new long[chain.length + 1];
            all[0] = taskId;
            System.arraycopy(chain, 0, all, 1, chain.length);
            return all;
        }
    }

    /** The ids of a chain after its first task, as {@code chain_ids} stores them; null for a chain of one. */
    static String chainText(long[] ids, int from) {
        if (ids.length <= from) {
            return null;
        }
        StringBuilder text = new StringBuilder();
        for (int i = from; i < ids.length; i++) {
            if (i > from) {
                text.append(',');
            }
            text.append(ids[i]);
        }
        return text.toString();
    }

    private static long[] chainOf(String text) {
        if (text == null || text.isEmpty()) {
            return new long[0];
        }
        String[] parts = text.split(",");
        long[] ids = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            ids[i] = Long.parseLong(parts[i]);
        }
        return ids;
    }

    /**
     * A slot of one key locked by a claim.
     *
     * @param key the key
     * @param slot the slot
     */
    record LockedKeySlot(String key, LockedSlot slot) {}

    /**
     * A limit row.
     *
     * @param kind the kind
     * @param declared the declared limit, or null
     * @param override the run-time limit, or null
     * @param declaredPerKey the declared per-key limit, or null
     * @param overridePerKey the run-time per-key limit, or null
     */
    record LimitRow(String kind, Integer declared, Integer override, Integer declaredPerKey, Integer overridePerKey) {
        /** The limit in force, or null. */
        Integer effective() {
            return override != null ? override : declared;
        }

        /** The per-key limit in force, or null. */
        Integer effectivePerKey() {
            return overridePerKey != null ? overridePerKey : declaredPerKey;
        }
    }

    /** The condition that a limit row holds no limit at all, so that it can go. */
    private static final String NO_LIMIT = " AND declared_limit IS NULL AND override_limit IS NULL"
            + " AND declared_per_key IS NULL AND override_per_key IS NULL AND rate_limit IS NULL"
            + " AND override_rate_limit IS NULL AND key_rate_limit IS NULL AND override_key_rate_limit IS NULL";

    /** Which columns of a limit row ({@code flow_limit}, or {@code flow_queue_limit} for the queue ones) a rate limit is written to. */
    enum RateColumns {
        /** The kind's rate limit that the definitions declare. */
        DECLARED("rate_limit", "rate_period_ms"),
        /** The kind's rate limit set at run time. */
        OVERRIDE("override_rate_limit", "override_rate_period_ms"),
        /** The per-key rate limit that the definitions declare. */
        DECLARED_PER_KEY("key_rate_limit", "key_rate_period_ms"),
        /** The per-key rate limit set at run time. */
        OVERRIDE_PER_KEY("override_key_rate_limit", "override_key_rate_period_ms"),
        /** A queue's rate limit that the nodes' settings declare ({@code flow_queue_limit}). */
        QUEUE_DECLARED("declared_rate_limit", "declared_rate_period_ms"),
        /** A queue's rate limit set at run time ({@code flow_queue_limit}). */
        QUEUE_OVERRIDE("override_rate_limit", "override_rate_period_ms");

        private final String starts;
        private final String period;

        RateColumns(String starts, String period) {
            this.starts = starts;
            this.period = period;
        }
    }

    private final Dialect dialect;
    private final String limits;
    private final String slots;
    private final String keySlots;
    private final String rateSlots;
    private final String keyRateSlots;
    private final String tasks;
    private final String queueLimits;
    private final String queueSlots;
    private final String queueRateSlots;

    FlowStore(Dialect dialect, String prefix) {
        this.dialect = dialect;
        this.limits = prefix + "flow_limit";
        this.slots = prefix + "flow_slot";
        this.keySlots = prefix + "flow_key_slot";
        this.rateSlots = prefix + "flow_rate_slot";
        this.keyRateSlots = prefix + "flow_key_rate_slot";
        this.tasks = prefix + "task";
        this.queueLimits = prefix + "flow_queue_limit";
        this.queueSlots = prefix + "flow_queue_slot";
        this.queueRateSlots = prefix + "flow_queue_rate_slot";
    }

    /** Where a kind's slot rows live: {@code flow_slot}, by kind. */
    private static final String KIND = "kind";
    /** Where a queue's slot rows live: {@code flow_queue_slot}, by queue. */
    private static final String QUEUE = "queue";

    private String slotTable(String owner) {
        return owner.equals(KIND) ? slots : queueSlots;
    }

    /**
     * Sets one column of a kind's limit; null clears it, and a row left with neither is deleted.
     *
     * @return whether the row changed or was created
     */
    boolean set(Connection connection, String kind, Source source, Integer limit) throws SQLException {
        int updated;
        try (PreparedStatement update =
                connection.prepareStatement("UPDATE " + limits + " SET " + source.column + " = ? WHERE kind = ?")) {
            if (limit == null) {
                update.setNull(1, java.sql.Types.INTEGER);
            } else {
                update.setInt(1, limit);
            }
            update.setString(2, kind);
            updated = update.executeUpdate();
        }
        if (limit == null) {
            try (PreparedStatement delete =
                    connection.prepareStatement("DELETE FROM " + limits + " WHERE kind = ?" + NO_LIMIT)) {
                delete.setString(1, kind);
                delete.executeUpdate();
            }
            return updated > 0;
        }
        if (updated > 0) {
            return true;
        }
        String insert =
                dialect.insertSkippingDuplicates(limits + " (kind, " + source.column + ") VALUES (?, ?)", "(kind)");
        try (PreparedStatement statement = connection.prepareStatement(insert)) {
            statement.setString(1, kind);
            statement.setInt(2, limit);
            statement.executeUpdate();
        } catch (SQLException e) {
            if (!dialect.isUniqueViolation(e)) {
                throw e;
            }
        }
        // Another node may have inserted the row between the update and the insert: set it once more.
        try (PreparedStatement update =
                connection.prepareStatement("UPDATE " + limits + " SET " + source.column + " = ? WHERE kind = ?")) {
            update.setInt(1, limit);
            update.setString(2, kind);
            update.executeUpdate();
        }
        return true;
    }

    /** Every limit row, by kind. */
    Map<String, LimitRow> limits(Connection connection) throws SQLException {
        Map<String, LimitRow> rows = new LinkedHashMap<>();
        try (PreparedStatement statement = connection.prepareStatement(
                        "SELECT kind, declared_limit, override_limit, declared_per_key, override_per_key FROM " + limits
                                + " ORDER BY kind");
                ResultSet result = statement.executeQuery()) {
            while (result.next()) {
                String kind = result.getString(1);
                LimitRow row = new LimitRow(
                        kind, intOrNull(result, 2), intOrNull(result, 3), intOrNull(result, 4), intOrNull(result, 5));
                if (row.effective() != null || row.effectivePerKey() != null) {
                    rows.put(kind, row);
                }
            }
        }
        return rows;
    }

    /**
     * Sets a kind's declared rate limit ({@code starts} per {@code periodMillis}), or clears it with null; a row
     * left with no limit at all is deleted.
     */
    void setRate(Connection connection, String kind, Integer starts, long periodMillis) throws SQLException {
        setRate(connection, kind, false, starts, periodMillis);
    }

    /**
     * Sets a kind's rate limit, declared or set at run time ({@code override}), or clears it with null; a row
     * left with no limit at all is deleted.
     */
    void setRate(Connection connection, String kind, boolean override, Integer starts, long periodMillis)
            throws SQLException {
        setRate(connection, kind, override ? RateColumns.OVERRIDE : RateColumns.DECLARED, starts, periodMillis);
    }

    /**
     * Sets one of a kind's rate limits ({@code columns}), or clears it with null; a row left with no limit at all is
     * deleted.
     */
    void setRate(Connection connection, String kind, RateColumns columns, Integer starts, long periodMillis)
            throws SQLException {
        writeRate(connection, new LimitTable(limits, "kind", NO_LIMIT), kind, columns, starts, periodMillis);
    }

    /** A table of limits: its name, its key column, and the condition that a row holds no limit at all. */
    private record LimitTable(String name, String key, String noLimit) {}

    /**
     * Writes a rate limit into the row of {@code owner}, creating the row if needed (another node may create it at the
     * same moment), or clears it with null and deletes a row left with no limit at all.
     */
    private void writeRate(
            Connection connection,
            LimitTable table,
            String owner,
            RateColumns columns,
            Integer starts,
            long periodMillis)
            throws SQLException {
        String update = "UPDATE " + table.name() + " SET " + columns.starts + " = ?, " + columns.period + " = ? WHERE "
                + table.key() + " = ?";
        int updated;
        try (PreparedStatement statement = connection.prepareStatement(update)) {
            bindRate(statement, starts, periodMillis);
            statement.setString(3, owner);
            updated = statement.executeUpdate();
        }
        if (starts == null) {
            try (PreparedStatement delete = connection.prepareStatement(
                    "DELETE FROM " + table.name() + " WHERE " + table.key() + " = ?" + table.noLimit())) {
                delete.setString(1, owner);
                delete.executeUpdate();
            }
            return;
        }
        if (updated > 0) {
            return;
        }
        String insert = dialect.insertSkippingDuplicates(
                table.name() + " (" + table.key() + ", " + columns.starts + ", " + columns.period
                        + ") VALUES (?, ?, ?)",
                "(" + table.key() + ")");
        try (PreparedStatement statement = connection.prepareStatement(insert)) {
            statement.setString(1, owner);
            statement.setInt(2, starts);
            statement.setLong(3, periodMillis);
            statement.executeUpdate();
        } catch (SQLException e) {
            if (!dialect.isUniqueViolation(e)) {
                throw e;
            }
        }
        // Another node may have inserted the row between the update and the insert: set it once more.
        try (PreparedStatement statement = connection.prepareStatement(update)) {
            bindRate(statement, starts, periodMillis);
            statement.setString(3, owner);
            statement.executeUpdate();
        }
    }

    private static void bindRate(PreparedStatement statement, Integer starts, long periodMillis) throws SQLException {
        if (starts == null) {
            statement.setNull(1, java.sql.Types.INTEGER);
            statement.setNull(2, java.sql.Types.BIGINT);
        } else {
            statement.setInt(1, starts);
            statement.setLong(2, periodMillis);
        }
    }

    /** Every rate limit in force (the run-time one where set, else the declared one): kind to the limit. */
    Map<String, RateLimit> rates(Connection connection) throws SQLException {
        return inForce(rateRows(connection));
    }

    /** Of rows {declared, override}, the limit in force of each: the override where set, else the declared one. */
    private static Map<String, RateLimit> inForce(Map<String, RateLimit[]> rows) {
        Map<String, RateLimit> rates = new LinkedHashMap<>();
        rows.forEach((owner, row) -> rates.put(owner, row[1] != null ? row[1] : row[0]));
        return rates;
    }

    /** Every kind with a rate limit, declared or set at run time: kind to {declared, override}, each or null. */
    Map<String, RateLimit[]> rateRows(Connection connection) throws SQLException {
        return rateRows(connection, RateColumns.DECLARED, RateColumns.OVERRIDE);
    }

    /** Every per-key rate limit in force (the run-time one where set, else the declared one): kind to the limit. */
    Map<String, RateLimit> keyRates(Connection connection) throws SQLException {
        return inForce(keyRateRows(connection));
    }

    /** Every kind with a per-key rate limit, declared or set at run time: kind to {declared, override}. */
    Map<String, RateLimit[]> keyRateRows(Connection connection) throws SQLException {
        return rateRows(connection, RateColumns.DECLARED_PER_KEY, RateColumns.OVERRIDE_PER_KEY);
    }

    private Map<String, RateLimit[]> rateRows(Connection connection, RateColumns declared, RateColumns override)
            throws SQLException {
        Map<String, RateLimit[]> rates = new LinkedHashMap<>();
        try (PreparedStatement statement = connection.prepareStatement("SELECT kind, " + declared.starts + ", "
                        + declared.period + ", " + override.starts + ", " + override.period + " FROM " + limits
                        + " WHERE " + declared.starts + " IS NOT NULL OR " + override.starts + " IS NOT NULL"
                        + " ORDER BY kind");
                ResultSet result = statement.executeQuery()) {
            while (result.next()) {
                rates.put(result.getString(1), new RateLimit[] {rate(result, 2), rate(result, 4)});
            }
        }
        return rates;
    }

    private static RateLimit rate(ResultSet result, int column) throws SQLException {
        Integer starts = intOrNull(result, column);
        long period = result.getLong(column + 1);
        return starts == null || result.wasNull() ? null : new RateLimit(starts, Duration.ofMillis(period));
    }

    /** How many rate slots of a kind started a task within the last {@code periodMicros} (database clock). */
    int rateSlotsInUse(Connection connection, String kind, int slots, long periodMicros, long clockOffsetMicros)
            throws SQLException {
        return rateSlotsInUse(connection, KIND, kind, slots, periodMicros, clockOffsetMicros);
    }

    /** How many rate slots of a queue started a task within the last {@code periodMicros} (database clock). */
    int queueRateSlotsInUse(Connection connection, String queue, int slots, long periodMicros, long clockOffsetMicros)
            throws SQLException {
        return rateSlotsInUse(connection, QUEUE, queue, slots, periodMicros, clockOffsetMicros);
    }

    private String rateTable(String owner) {
        return owner.equals(KIND) ? rateSlots : queueRateSlots;
    }

    private int rateSlotsInUse(
            Connection connection, String owner, String kind, int slots, long periodMicros, long clockOffsetMicros)
            throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT COUNT(*) FROM " + rateTable(owner)
                + " WHERE " + owner + " = ? AND slot_no <= ? AND last_start_at > " + dialect.timePlusMicros())) {
            statement.setString(1, kind);
            statement.setInt(2, slots);
            statement.setLong(3, clockOffsetMicros - periodMicros);
            try (ResultSet result = statement.executeQuery()) {
                result.next();
                return result.getInt(1);
            }
        }
    }

    /**
     * Sets a queue's declared limit, or its run-time one ({@code override}); null clears it, and a row left with
     * neither is deleted.
     */
    void setQueue(Connection connection, String queue, boolean override, Integer limit) throws SQLException {
        String column = override ? "override_limit" : "declared_limit";
        String update = "UPDATE " + queueLimits + " SET " + column + " = ? WHERE queue = ?";
        int updated;
        try (PreparedStatement statement = connection.prepareStatement(update)) {
            if (limit == null) {
                statement.setNull(1, java.sql.Types.INTEGER);
            } else {
                statement.setInt(1, limit);
            }
            statement.setString(2, queue);
            updated = statement.executeUpdate();
        }
        if (limit == null) {
            try (PreparedStatement delete =
                    connection.prepareStatement("DELETE FROM " + queueLimits + " WHERE queue = ?" + NO_QUEUE_LIMIT)) {
                delete.setString(1, queue);
                delete.executeUpdate();
            }
            return;
        }
        if (updated > 0) {
            return;
        }
        try (PreparedStatement statement = connection.prepareStatement(
                dialect.insertSkippingDuplicates(queueLimits + " (queue, " + column + ") VALUES (?, ?)", "(queue)"))) {
            statement.setString(1, queue);
            statement.setInt(2, limit);
            statement.executeUpdate();
        } catch (SQLException e) {
            if (!dialect.isUniqueViolation(e)) {
                throw e;
            }
        }
        // Another node may have inserted the row between the update and the insert: set it once more.
        try (PreparedStatement statement = connection.prepareStatement(update)) {
            statement.setInt(1, limit);
            statement.setString(2, queue);
            statement.executeUpdate();
        }
    }

    /** The condition that a queue's limit row holds no limit at all, so that it can go. */
    private static final String NO_QUEUE_LIMIT = " AND declared_limit IS NULL AND override_limit IS NULL"
            + " AND declared_rate_limit IS NULL AND override_rate_limit IS NULL";

    /**
     * Sets a queue's declared rate limit, or its run-time one ({@code override}); null clears it, and a row left with
     * no limit at all is deleted.
     */
    void setQueueRate(Connection connection, String queue, boolean override, Integer starts, long periodMillis)
            throws SQLException {
        writeRate(
                connection,
                new LimitTable(queueLimits, "queue", NO_QUEUE_LIMIT),
                queue,
                override ? RateColumns.QUEUE_OVERRIDE : RateColumns.QUEUE_DECLARED,
                starts,
                periodMillis);
    }

    /** Every queue with a rate limit, declared or set at run time: queue to {declared, override}, each or null. */
    Map<String, RateLimit[]> queueRateRows(Connection connection) throws SQLException {
        Map<String, RateLimit[]> rates = new LinkedHashMap<>();
        try (PreparedStatement statement = connection.prepareStatement("SELECT queue, declared_rate_limit,"
                        + " declared_rate_period_ms, override_rate_limit, override_rate_period_ms FROM " + queueLimits
                        + " WHERE declared_rate_limit IS NOT NULL OR override_rate_limit IS NOT NULL ORDER BY queue");
                ResultSet result = statement.executeQuery()) {
            while (result.next()) {
                rates.put(result.getString(1), new RateLimit[] {rate(result, 2), rate(result, 4)});
            }
        }
        return rates;
    }

    /** Every queue with a limit row: queue to {declared, override}, each or null. */
    Map<String, Integer[]> queueLimits(Connection connection) throws SQLException {
        Map<String, Integer[]> rows = new LinkedHashMap<>();
        try (PreparedStatement statement = connection.prepareStatement(
                        "SELECT queue, declared_limit, override_limit FROM " + queueLimits + " ORDER BY queue");
                ResultSet result = statement.executeQuery()) {
            while (result.next()) {
                rows.put(result.getString(1), new Integer[] {intOrNull(result, 2), intOrNull(result, 3)});
            }
        }
        return rows;
    }

    /** Creates the slot rows 1 to {@code count} of a queue that do not exist yet. */
    void ensureQueueSlots(Connection connection, String queue, int count) throws SQLException {
        ensureSlots(connection, QUEUE, queue, count);
    }

    /** Locks the slots 1 to {@code limit} of a queue that no other claim has locked. */
    List<LockedSlot> lockQueueSlots(Connection connection, String queue, int limit) throws SQLException {
        return lockSlots(connection, QUEUE, queue, limit);
    }

    /** Writes the task that takes each slot of a queue. */
    void takeQueueSlots(Connection connection, String queue, int[] slotNos, long[] taskIds, long leaseToken)
            throws SQLException {
        take(connection, QUEUE, queue, slotNos, taskIds, leaseToken);
    }

    /** How many tasks of a queue hold one of its slots now. */
    int queueSlotsInUse(Connection connection, String queue) throws SQLException {
        return slotsInUse(connection, QUEUE, queue);
    }

    /** How many tasks of a queue are pending and due now. */
    long queuePendingDue(Connection connection, String queue, long clockOffsetMicros) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT COUNT(*) FROM " + tasks
                + " WHERE state = " + States.PENDING + " AND queue = ? AND run_at <= " + dialect.timePlusMicros())) {
            statement.setString(1, queue);
            statement.setLong(2, clockOffsetMicros);
            try (ResultSet result = statement.executeQuery()) {
                result.next();
                return result.getLong(1);
            }
        }
    }

    /** Creates the rate slot rows 1 to {@code count} of a kind that do not exist yet. */
    void ensureRateSlots(Connection connection, String kind, int count) throws SQLException {
        ensureRateSlots(connection, KIND, kind, count);
    }

    /** Creates the rate slot rows 1 to {@code count} of a queue that do not exist yet. */
    void ensureQueueRateSlots(Connection connection, String queue, int count) throws SQLException {
        ensureRateSlots(connection, QUEUE, queue, count);
    }

    private void ensureRateSlots(Connection connection, String owner, String kind, int count) throws SQLException {
        String insert = dialect.insertSkippingDuplicates(
                rateTable(owner) + " (" + owner + ", slot_no) VALUES (?, ?)", "(" + owner + ", slot_no)");
        for (int slot = 1; slot <= count; slot++) {
            try (PreparedStatement statement = connection.prepareStatement(insert)) {
                statement.setString(1, kind);
                statement.setInt(2, slot);
                statement.executeUpdate();
            } catch (SQLException e) {
                if (!dialect.isUniqueViolation(e)) {
                    throw e;
                }
            }
        }
    }

    /**
     * Locks up to {@code most} rate slots of a kind whose last start is at least {@code periodMicros} ago on the
     * database clock (or that never started one), skipping those other claims hold. The condition is on the slot
     * row alone, so a locking read checks it on the row's latest version.
     */
    List<Integer> lockRateSlots(
            Connection connection, String kind, int slots, long periodMicros, long clockOffsetMicros, int most)
            throws SQLException {
        return lockRateSlots(connection, KIND, kind, slots, periodMicros, clockOffsetMicros, most);
    }

    /** Locks up to {@code most} rate slots of a queue free to start a task, as {@link #lockRateSlots}. */
    List<Integer> lockQueueRateSlots(
            Connection connection, String queue, int slots, long periodMicros, long clockOffsetMicros, int most)
            throws SQLException {
        return lockRateSlots(connection, QUEUE, queue, slots, periodMicros, clockOffsetMicros, most);
    }

    private List<Integer> lockRateSlots(
            Connection connection,
            String owner,
            String kind,
            int slots,
            long periodMicros,
            long clockOffsetMicros,
            int most)
            throws SQLException {
        List<Integer> free = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement("SELECT slot_no FROM " + rateTable(owner)
                + " WHERE " + owner + " = ? AND slot_no <= ? AND (last_start_at IS NULL OR last_start_at <= "
                + dialect.timePlusMicros() + ") ORDER BY slot_no LIMIT ? FOR UPDATE SKIP LOCKED")) {
            statement.setString(1, kind);
            statement.setInt(2, slots);
            statement.setLong(3, clockOffsetMicros - periodMicros);
            statement.setInt(4, most);
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    free.add(result.getInt(1));
                }
            }
        }
        return free;
    }

    /** Writes a start, now on the database clock, on each of {@code slotNos}. */
    void startOn(Connection connection, String kind, List<Integer> slotNos, long clockOffsetMicros)
            throws SQLException {
        startOn(connection, KIND, kind, slotNos, clockOffsetMicros);
    }

    /** Writes a start, now on the database clock, on each of a queue's rate slots {@code slotNos}. */
    void startOnQueue(Connection connection, String queue, List<Integer> slotNos, long clockOffsetMicros)
            throws SQLException {
        startOn(connection, QUEUE, queue, slotNos, clockOffsetMicros);
    }

    private void startOn(
            Connection connection, String owner, String kind, List<Integer> slotNos, long clockOffsetMicros)
            throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("UPDATE " + rateTable(owner)
                + " SET last_start_at = " + dialect.timePlusMicros() + " WHERE " + owner + " = ? AND slot_no = ?")) {
            for (int slot : slotNos) {
                statement.setLong(1, clockOffsetMicros);
                statement.setString(2, kind);
                statement.setInt(3, slot);
                statement.addBatch();
            }
            statement.executeBatch();
        }
    }

    private static Integer intOrNull(ResultSet result, int column) throws SQLException {
        int value = result.getInt(column);
        return result.wasNull() ? null : value;
    }

    /**
     * The next keys after {@code after} (null: from the first) among the pending tasks of a kind and queue, in key
     * order, at most {@code most}, with one probe of the key index per key (a loose index scan), whatever the number
     * of tasks of each key: all in one recursive statement, or where the database cannot run the probes of such a
     * statement as probes ({@link Dialect#probesIndexInRecursiveQuery()}), one statement a key.
     */
    List<String> nextKeys(Connection connection, String kind, String queue, String after, int most)
            throws SQLException {
        if (!dialect.probesIndexInRecursiveQuery()) {
            return nextKeysOneByOne(connection, kind, queue, after, most);
        }
        String probe = "(SELECT MIN(limit_key) FROM " + tasks + " WHERE state = " + States.PENDING
                + " AND kind = ? AND queue = ? AND limit_key > ";
        List<String> keys = new ArrayList<>(most);
        try (PreparedStatement statement = connection.prepareStatement("WITH RECURSIVE flow_keys (limit_key, n) AS"
                + " (SELECT " + probe + "?), 1 UNION ALL SELECT " + probe + "flow_keys.limit_key), n + 1"
                + " FROM flow_keys WHERE flow_keys.limit_key IS NOT NULL AND n < ?)"
                + " SELECT limit_key FROM flow_keys WHERE limit_key IS NOT NULL ORDER BY n")) {
            statement.setString(1, kind);
            statement.setString(2, queue);
            // Every key is longer than the empty string, which is not a valid key.
            statement.setString(3, after == null ? "" : after);
            statement.setString(4, kind);
            statement.setString(5, queue);
            statement.setInt(6, most);
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    keys.add(result.getString(1));
                }
            }
        }
        return keys;
    }

    /** {@link #nextKeys}, one probe statement a key. */
    private List<String> nextKeysOneByOne(Connection connection, String kind, String queue, String after, int most)
            throws SQLException {
        List<String> keys = new ArrayList<>(most);
        // Along the key index, the first entry only (H2 reads every matching entry for a MIN with this condition).
        try (PreparedStatement statement =
                connection.prepareStatement("SELECT limit_key FROM " + tasks + " WHERE state = "
                        + States.PENDING + " AND kind = ? AND queue = ? AND limit_key > ? ORDER BY "
                        + dialect.orderAlongIndex("state, kind, queue", "limit_key") + " LIMIT 1")) {
            // Every key is longer than the empty string, which is not a valid key.
            String last = after == null ? "" : after;
            while (keys.size() < most) {
                statement.setString(1, kind);
                statement.setString(2, queue);
                statement.setString(3, last);
                try (ResultSet result = statement.executeQuery()) {
                    last = result.next() ? result.getString(1) : null;
                }
                if (last == null) {
                    break;
                }
                keys.add(last);
            }
        }
        return keys;
    }

    /**
     * Creates the slot rows 1 to {@code count} of each of {@code keys} that do not exist yet. The caller runs this in
     * auto-commit, so that two nodes meeting new keys at once wait for each other for one statement at most: where
     * the database skips duplicates, one statement inserts the rows of up to {@value #ENSURE_ROWS} slots, keys in
     * order (so that two such statements lock in the same order); elsewhere each row is a statement of its own.
     */
    void ensureKeySlots(Connection connection, String kind, List<String> keys, int count) throws SQLException {
        ensureKeyRows(connection, keySlots, kind, keys, count);
    }

    /** Creates the rate slot rows 1 to {@code count} of each of {@code keys}, as {@link #ensureKeySlots}. */
    void ensureKeyRateSlots(Connection connection, String kind, List<String> keys, int count) throws SQLException {
        ensureKeyRows(connection, keyRateSlots, kind, keys, count);
    }

    /** The most slot rows one insert of {@link #ensureKeySlots} writes. */
    private static final int ENSURE_ROWS = 500;

    private void ensureKeyRows(Connection connection, String table, String kind, List<String> keys, int count)
            throws SQLException {
        List<KeySlot> rows = new ArrayList<>(keys.size() * count);
        for (String key : keys.stream().sorted().distinct().toList()) {
            for (int slot = 1; slot <= count; slot++) {
                rows.add(new KeySlot(kind, key, slot));
            }
        }
        int perStatement = dialect.skipsDuplicates() ? ENSURE_ROWS : 1;
        for (int from = 0; from < rows.size(); from += perStatement) {
            List<KeySlot> chunk = rows.subList(from, Math.min(rows.size(), from + perStatement));
            String insert = dialect.insertSkippingDuplicates(
                    table + " (kind, limit_key, slot_no) VALUES "
                            + String.join(", ", java.util.Collections.nCopies(chunk.size(), "(?, ?, ?)")),
                    "(kind, limit_key, slot_no)");
            try (PreparedStatement statement = connection.prepareStatement(insert)) {
                int i = 1;
                for (KeySlot row : chunk) {
                    statement.setString(i++, row.kind());
                    statement.setString(i++, row.key());
                    statement.setInt(i++, row.slotNo());
                }
                statement.executeUpdate();
            } catch (SQLException e) {
                if (!dialect.isUniqueViolation(e)) {
                    throw e;
                }
            }
        }
    }

    /** Locks the slots 1 to {@code limit} of each of {@code keys} that no other claim has locked. */
    List<LockedKeySlot> lockKeySlots(Connection connection, String kind, List<String> keys, int limit)
            throws SQLException {
        List<LockedKeySlot> locked = new ArrayList<>();
        String in = String.join(", ", java.util.Collections.nCopies(keys.size(), "?"));
        try (PreparedStatement statement =
                connection.prepareStatement("SELECT limit_key, slot_no, task_id, lease_token,"
                        + " chain_ids FROM " + keySlots + " WHERE kind = ? AND limit_key IN (" + in
                        + ") AND slot_no <= ?"
                        + " ORDER BY limit_key, slot_no FOR UPDATE SKIP LOCKED")) {
            bindKeys(statement, 1, kind, keys, limit);
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    long taskId = result.getLong(3);
                    Long holder = result.wasNull() ? null : taskId;
                    locked.add(new LockedKeySlot(
                            result.getString(1),
                            new LockedSlot(result.getInt(2), holder, result.getLong(4), chainOf(result.getString(5)))));
                }
            }
        }
        return locked;
    }

    /** Binds {@code kind = ? AND limit_key IN (keys) AND slot_no <= ?} from parameter {@code from}. */
    private static void bindKeys(PreparedStatement statement, int from, String kind, List<String> keys, int slots)
            throws SQLException {
        int i = from;
        statement.setString(i++, kind);
        for (String key : keys) {
            statement.setString(i++, key);
        }
        statement.setInt(i, slots);
    }

    /**
     * Locks the rate slots 1 to {@code slots} of each of {@code keys} that no other claim holds, each with whether
     * its last start is at least {@code periodMicros} ago on the database clock (or it never started one). A
     * locking read computes that on the row's latest committed version. Busy slots are locked too, so that the
     * caller can tell a key whose rows are missing (pruned) from one whose rows are busy.
     */
    List<LockedKeyRateSlot> lockKeyRateSlots(
            Connection connection, String kind, List<String> keys, int slots, long periodMicros, long clockOffsetMicros)
            throws SQLException {
        List<LockedKeyRateSlot> locked = new ArrayList<>();
        String in = String.join(", ", java.util.Collections.nCopies(keys.size(), "?"));
        try (PreparedStatement statement = connection.prepareStatement("SELECT limit_key, slot_no, CASE WHEN"
                + " last_start_at IS NULL OR last_start_at <= " + dialect.timePlusMicros() + " THEN 1 ELSE 0 END"
                + " FROM " + keyRateSlots + " WHERE kind = ? AND limit_key IN (" + in + ") AND slot_no <= ?"
                + " ORDER BY limit_key, slot_no FOR UPDATE SKIP LOCKED")) {
            statement.setLong(1, clockOffsetMicros - periodMicros);
            bindKeys(statement, 2, kind, keys, slots);
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    locked.add(new LockedKeyRateSlot(
                            new KeySlot(kind, result.getString(1), result.getInt(2)), result.getInt(3) == 1));
                }
            }
        }
        return locked;
    }

    /**
     * A key's rate slot locked by a claim.
     *
     * @param slot the slot
     * @param free whether its last start is a period old, so that a task may start on it
     */
    record LockedKeyRateSlot(KeySlot slot, boolean free) {}

    /** Writes a start, now on the database clock, on each of the key rate slots {@code used}. */
    void startOnKeys(Connection connection, List<KeySlot> used, long clockOffsetMicros) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("UPDATE " + keyRateSlots
                + " SET last_start_at = " + dialect.timePlusMicros()
                + " WHERE kind = ? AND limit_key = ? AND slot_no = ?")) {
            for (KeySlot slot : used) {
                statement.setLong(1, clockOffsetMicros);
                statement.setString(2, slot.kind());
                statement.setString(3, slot.key());
                statement.setInt(4, slot.slotNo());
                statement.addBatch();
            }
            statement.executeBatch();
        }
    }

    /** How many rate slots of a per-key kind, over all its keys, started a task within the last {@code periodMicros}. */
    int keyRateSlotsInUse(Connection connection, String kind, int slots, long periodMicros, long clockOffsetMicros)
            throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT COUNT(*) FROM " + keyRateSlots
                + " WHERE kind = ? AND slot_no <= ? AND last_start_at > " + dialect.timePlusMicros())) {
            statement.setString(1, kind);
            statement.setInt(2, slots);
            statement.setLong(3, clockOffsetMicros - periodMicros);
            try (ResultSet result = statement.executeQuery()) {
                result.next();
                return result.getInt(1);
            }
        }
    }

    /**
     * Writes the chain that takes each slot of a key: {@code slotNos[i]} of {@code keys.get(i)} goes to the tasks
     * {@code chains.get(i)}, in the order they run.
     */
    void takeKeySlots(
            Connection connection, String kind, List<String> keys, int[] slotNos, List<long[]> chains, long leaseToken)
            throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "UPDATE " + keySlots
                        + " SET task_id = ?, lease_token = ?, chain_ids = ? WHERE kind = ? AND limit_key = ? AND slot_no = ?")) {
            for (int i = 0; i < slotNos.length; i++) {
                statement.setLong(1, chains.get(i)[0]);
                statement.setLong(2, leaseToken);
                statement.setString(3, chainText(chains.get(i), 1));
                statement.setString(4, kind);
                statement.setString(5, keys.get(i));
                statement.setInt(6, slotNos[i]);
                statement.addBatch();
            }
            statement.executeBatch();
        }
    }

    /**
     * How many slots of any key of a kind are held now: a task of their chain is running with their token.
     */
    int keySlotsInUse(Connection connection, String kind) throws SQLException {
        return held(connection, keySlots, kind);
    }

    /** How many of a kind's slots in {@code table} are held: a task of their chain runs with their token. */
    private int held(Connection connection, String table, String owner) throws SQLException {
        List<LockedSlot> slots = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement("SELECT slot_no, task_id, lease_token,"
                + " chain_ids FROM " + table + " WHERE kind = ? AND task_id IS NOT NULL")) {
            statement.setString(1, owner);
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    slots.add(new LockedSlot(
                            result.getInt(1), result.getLong(2), result.getLong(3), chainOf(result.getString(4))));
                }
            }
        }
        long[] ids = slots.stream()
                .flatMapToLong(slot -> java.util.Arrays.stream(slot.holders()))
                .toArray();
        Map<Long, Long> running = new HashMap<>();
        for (int from = 0; from < ids.length; from += 1_000) {
            running.putAll(runningTokens(
                    connection, java.util.Arrays.copyOfRange(ids, from, Math.min(ids.length, from + 1_000))));
        }
        int held = 0;
        for (LockedSlot slot : slots) {
            for (long id : slot.holders()) {
                Long token = running.get(id);
                if (token != null && token == slot.leaseToken()) {
                    held++;
                    break;
                }
            }
        }
        return held;
    }

    /**
     * Creates the slot rows 1 to {@code count} of a kind that do not exist yet. Slots are only ever added, so
     * they are numbered without gaps, and a concurrent node adding the same ones is skipped.
     */
    void ensureSlots(Connection connection, String kind, int count) throws SQLException {
        ensureSlots(connection, KIND, kind, count);
    }

    private void ensureSlots(Connection connection, String owner, String kind, int count) throws SQLException {
        String slots = slotTable(owner);
        int highest;
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT COALESCE(MAX(slot_no), 0) FROM " + slots + " WHERE " + owner + " = ?")) {
            statement.setString(1, kind);
            try (ResultSet result = statement.executeQuery()) {
                result.next();
                highest = result.getInt(1);
            }
        }
        String insert = dialect.insertSkippingDuplicates(
                slots + " (" + owner + ", slot_no) VALUES (?, ?)", "(" + owner + ", slot_no)");
        for (int slot = highest + 1; slot <= count; slot++) {
            try (PreparedStatement statement = connection.prepareStatement(insert)) {
                statement.setString(1, kind);
                statement.setInt(2, slot);
                statement.executeUpdate();
            } catch (SQLException e) {
                if (!dialect.isUniqueViolation(e)) {
                    throw e;
                }
            }
        }
    }

    /**
     * Locks the slots 1 to {@code limit} of a kind that no other claim has locked, skipping the others.
     * A locking read returns each slot's latest committed holder.
     */
    List<LockedSlot> lockSlots(Connection connection, String kind, int limit) throws SQLException {
        return lockSlots(connection, KIND, kind, limit);
    }

    private List<LockedSlot> lockSlots(Connection connection, String owner, String kind, int limit)
            throws SQLException {
        List<LockedSlot> locked = new ArrayList<>(limit);
        try (PreparedStatement statement = connection.prepareStatement("SELECT slot_no, task_id, lease_token, "
                + (owner.equals(KIND) ? "chain_ids" : "NULL") + " FROM " + slotTable(owner) + " WHERE " + owner
                + " = ? AND slot_no <= ? ORDER BY slot_no FOR UPDATE SKIP LOCKED")) {
            statement.setString(1, kind);
            statement.setInt(2, limit);
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    long taskId = result.getLong(2);
                    Long holder = result.wasNull() ? null : taskId;
                    locked.add(
                            new LockedSlot(result.getInt(1), holder, result.getLong(3), chainOf(result.getString(4))));
                }
            }
        }
        return locked;
    }

    /**
     * The lease tokens of those of {@code ids} that are running now. Read after the slots were locked, in a
     * statement of its own, so that it sees the claim that took each slot (READ COMMITTED on every dialect).
     */
    Map<Long, Long> runningTokens(Connection connection, long[] ids) throws SQLException {
        Map<Long, Long> running = new HashMap<>();
        if (ids.length == 0) {
            return running;
        }
        try (PreparedStatement statement = connection.prepareStatement("SELECT id, lease_token FROM " + tasks
                + " WHERE " + dialect.idIn("id", ids.length) + " AND state = " + States.RUNNING)) {
            dialect.bindIds(statement, 1, ids);
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    running.put(result.getLong(1), result.getLong(2));
                }
            }
        }
        return running;
    }

    /**
     * Writes the chain that takes each slot of a kind: {@code slotNos[i]} goes to the tasks {@code chains.get(i)}, in
     * the order they run.
     */
    void take(Connection connection, String kind, int[] slotNos, List<long[]> chains, long leaseToken)
            throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("UPDATE " + slots
                + " SET task_id = ?, lease_token = ?, chain_ids = ? WHERE kind = ? AND slot_no = ?")) {
            for (int i = 0; i < slotNos.length; i++) {
                statement.setLong(1, chains.get(i)[0]);
                statement.setLong(2, leaseToken);
                statement.setString(3, chainText(chains.get(i), 1));
                statement.setString(4, kind);
                statement.setInt(5, slotNos[i]);
                statement.addBatch();
            }
            statement.executeBatch();
        }
    }

    private void take(Connection connection, String owner, String kind, int[] slotNos, long[] taskIds, long leaseToken)
            throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("UPDATE " + slotTable(owner)
                + " SET task_id = ?, lease_token = ? WHERE " + owner + " = ? AND slot_no = ?")) {
            for (int i = 0; i < taskIds.length; i++) {
                statement.setLong(1, taskIds[i]);
                statement.setLong(2, leaseToken);
                statement.setString(3, kind);
                statement.setInt(4, slotNos[i]);
                statement.addBatch();
            }
            statement.executeBatch();
        }
    }

    /**
     * How many tasks of a kind hold a slot now: running with the lease token their slot recorded.
     */
    int slotsInUse(Connection connection, String kind) throws SQLException {
        return held(connection, slots, kind);
    }

    private int slotsInUse(Connection connection, String owner, String kind) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT COUNT(*) FROM " + slotTable(owner)
                + " s JOIN " + tasks + " t ON t.id = s.task_id AND t.lease_token = s.lease_token WHERE s." + owner
                + " = ? AND t.state = " + States.RUNNING)) {
            statement.setString(1, kind);
            try (ResultSet result = statement.executeQuery()) {
                result.next();
                return result.getInt(1);
            }
        }
    }

    /** How many tasks of a kind (all, or those with a key only) are pending and due now. */
    long pendingDue(Connection connection, String kind, boolean all, long clockOffsetMicros) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT COUNT(*) FROM " + tasks
                + " WHERE state = " + States.PENDING + " AND kind = ?" + (all ? "" : " AND limit_key IS NOT NULL")
                + " AND run_at <= " + dialect.timePlusMicros())) {
            statement.setString(1, kind);
            statement.setLong(2, clockOffsetMicros);
            try (ResultSet result = statement.executeQuery()) {
                result.next();
                return result.getLong(1);
            }
        }
    }

    /**
     * A key's slot row.
     *
     * @param kind the kind
     * @param key the key
     * @param slotNo the slot
     */
    record KeySlot(String kind, String key, int slotNo) {}

    /**
     * Locks up to {@code most} key slot rows after ({@code afterKind}, {@code afterKey}) in key order, skipping
     * those a claim holds.
     */
    List<KeySlot> lockKeySlotsAfter(Connection connection, String afterKind, String afterKey, int most)
            throws SQLException {
        return lockKeyRowsAfter(connection, keySlots, afterKind, afterKey, most);
    }

    /** Locks up to {@code most} key rate slot rows after ({@code afterKind}, {@code afterKey}), as the slots. */
    List<KeySlot> lockKeyRateSlotsAfter(Connection connection, String afterKind, String afterKey, int most)
            throws SQLException {
        return lockKeyRowsAfter(connection, keyRateSlots, afterKind, afterKey, most);
    }

    private List<KeySlot> lockKeyRowsAfter(
            Connection connection, String table, String afterKind, String afterKey, int most) throws SQLException {
        List<KeySlot> locked = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement("SELECT kind, limit_key, slot_no FROM "
                + table + " WHERE kind > ? OR (kind = ? AND limit_key > ?) ORDER BY kind, limit_key, slot_no"
                + " LIMIT ? FOR UPDATE SKIP LOCKED")) {
            statement.setString(1, afterKind);
            statement.setString(2, afterKind);
            statement.setString(3, afterKey);
            statement.setInt(4, most);
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    locked.add(new KeySlot(result.getString(1), result.getString(2), result.getInt(3)));
                }
            }
        }
        return locked;
    }

    /** Which of {@code keys} of a kind have a task pending or running now. */
    java.util.Set<String> busyKeys(Connection connection, String kind, java.util.Collection<String> keys)
            throws SQLException {
        java.util.Set<String> busy = new java.util.HashSet<>();
        try (PreparedStatement statement = connection.prepareStatement("SELECT DISTINCT limit_key FROM " + tasks
                + " WHERE state IN (" + States.PENDING + ", " + States.RUNNING + ") AND kind = ? AND limit_key IN ("
                + String.join(", ", java.util.Collections.nCopies(keys.size(), "?")) + ")")) {
            int i = 1;
            statement.setString(i++, kind);
            for (String key : keys) {
                statement.setString(i++, key);
            }
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    busy.add(result.getString(1));
                }
            }
        }
        return busy;
    }

    /**
     * Deletes key rate slot rows, each by its primary key, those whose last start is at least their kind's period
     * ago (database clock), so that a key whose rows come back cannot start more than its limit in one window.
     *
     * @param periodMicros the period of each kind's per-key rate limit in force; a kind not there has none, and its
     *     rows go whatever their last start
     * @return how many rows it deleted
     */
    int deleteKeyRateSlots(
            Connection connection, List<KeySlot> rows, Map<String, Long> periodMicros, long clockOffsetMicros)
            throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("DELETE FROM " + keyRateSlots
                + " WHERE kind = ? AND limit_key = ? AND slot_no = ? AND (last_start_at IS NULL OR last_start_at <= "
                + dialect.timePlusMicros() + ")")) {
            for (KeySlot row : rows) {
                statement.setString(1, row.kind());
                statement.setString(2, row.key());
                statement.setInt(3, row.slotNo());
                statement.setLong(4, clockOffsetMicros - periodMicros.getOrDefault(row.kind(), 0L));
                statement.addBatch();
            }
            int deleted = 0;
            for (int count : statement.executeBatch()) {
                // A driver may answer SUCCESS_NO_INFO (-2) for a batched statement: count it as one row, at most.
                deleted += count == java.sql.Statement.SUCCESS_NO_INFO ? 1 : count;
            }
            return deleted;
        }
    }

    /** Deletes key slot rows, each by its primary key. */
    void deleteKeySlots(Connection connection, List<KeySlot> rows) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "DELETE FROM " + keySlots + " WHERE kind = ? AND limit_key = ? AND slot_no = ?")) {
            for (KeySlot row : rows) {
                statement.setString(1, row.kind());
                statement.setString(2, row.key());
                statement.setInt(3, row.slotNo());
                statement.addBatch();
            }
            statement.executeBatch();
        }
    }
}
