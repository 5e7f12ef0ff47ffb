package dev.errand.internal.store;

import dev.errand.enqueue.Enqueued;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * PostgreSQL inserts: {@code ON CONFLICT DO NOTHING} for unique keys, so that a duplicate never aborts
 * the caller's transaction, and {@code unnest} over arrays for a batch in one round trip. The wake-up
 * rides in the statement: {@code pg_notify} in {@code RETURNING} runs once per inserted row, inside the
 * insert's transaction, so it costs no statement of its own and a duplicate that inserts nothing sends
 * nothing.
 */
final class PostgresTaskInserter implements TaskInserter {

    private static final int MAX_CONFLICT_ROUNDS = 10;

    /** The column arrays that {@link #bindColumns} binds, one parameter each. */
    private static final String COLUMN_ARRAYS = "CAST(? AS varchar[]), CAST(? AS varchar[]), CAST(? AS text[]),"
            + " CAST(? AS int[]), CAST(? AS text[]), CAST(? AS bigint[]), CAST(? AS int[]), CAST(? AS varchar[]),"
            + " CAST(? AS varchar[]), CAST(? AS varchar[]), CAST(? AS varchar[])";

    private final InsertStatement insert;
    private final String insertOne;
    private final String insertMany;
    private final String insertKeyed;
    private final UniqueKeys uniqueKeys;

    PostgresTaskInserter(InsertStatement insert, UniqueKeys uniqueKeys) {
        this.insert = insert;
        this.insertOne = insert.sql() + " ON CONFLICT DO NOTHING RETURNING id, pg_notify(?, ?)";
        // One pg_notify per row; PostgreSQL folds identical notifications of a transaction into one.
        this.insertMany = "INSERT INTO " + insert.table()
                + " (kind, queue, payload, priority, run_at, max_attempts, node_id, node_group, trace_parent,"
                + " trace_state)"
                + " SELECT r.kind, r.queue, CAST(r.payload AS jsonb), r.priority,"
                + " COALESCE(CAST(r.run_at AS timestamptz),"
                + " statement_timestamp() + r.delay_micros * INTERVAL '1 microsecond'), r.max_attempts,"
                + " r.node_id, r.node_group, r.trace_parent, r.trace_state"
                + " FROM unnest(" + COLUMN_ARRAYS + ")"
                + " AS r(kind, queue, payload, priority, run_at, delay_micros, max_attempts, node_id, node_group,"
                + " trace_parent, trace_state)"
                + " RETURNING id, pg_notify(?, queue)";
        // The same with unique keys: a key that an active task holds, or that an earlier row of the same
        // statement took, skips its row instead of aborting the caller's transaction.
        this.insertKeyed = "INSERT INTO " + insert.table()
                + " (kind, queue, payload, priority, run_at, max_attempts, node_id, node_group, trace_parent,"
                + " trace_state, unique_key)"
                + " SELECT r.kind, r.queue, CAST(r.payload AS jsonb), r.priority,"
                + " COALESCE(CAST(r.run_at AS timestamptz),"
                + " statement_timestamp() + r.delay_micros * INTERVAL '1 microsecond'), r.max_attempts,"
                + " r.node_id, r.node_group, r.trace_parent, r.trace_state, r.unique_key"
                + " FROM unnest(" + COLUMN_ARRAYS + ", CAST(? AS varchar[]))"
                + " AS r(kind, queue, payload, priority, run_at, delay_micros, max_attempts, node_id, node_group,"
                + " trace_parent, trace_state, unique_key)"
                + " ON CONFLICT DO NOTHING RETURNING id, unique_key, pg_notify(?, queue)";
        this.uniqueKeys = uniqueKeys;
    }

    @Override
    public Enqueued insert(Connection connection, NewTask task, String channel) throws SQLException {
        for (int round = 0; round < MAX_CONFLICT_ROUNDS; round++) {
            try (PreparedStatement statement = connection.prepareStatement(insertOne)) {
                insert.bind(statement, task);
                statement.setString(InsertStatement.PARAMETERS + 1, channel);
                statement.setString(InsertStatement.PARAMETERS + 2, task.queue());
                try (ResultSet rows = statement.executeQuery()) {
                    if (rows.next()) {
                        return new Enqueued(rows.getLong(1), true);
                    }
                }
            }
            // The key is held by an active task; if that task finished meanwhile, insert again.
            long holder = uniqueKeys.activeHolder(connection, task.uniqueKey());
            if (holder >= 0) {
                return new Enqueued(holder, false);
            }
        }
        throw new SQLException("Unique key '" + task.uniqueKey() + "' kept changing hands during " + MAX_CONFLICT_ROUNDS
                + " insert attempts");
    }

    @Override
    public long[] insertAll(Connection connection, List<NewTask> tasks, String channel) throws SQLException {
        int size = tasks.size();
        try (PreparedStatement statement = connection.prepareStatement(insertMany)) {
            int next = bindColumns(statement, connection, tasks);
            statement.setString(next, channel);
            // INSERT ... SELECT FROM unnest returns rows in input order; ids map back by position.
            long[] ids = new long[size];
            int i = 0;
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    ids[i++] = rows.getLong(1);
                }
            }
            if (i != size) {
                throw new SQLException("Batch insert returned " + i + " ids for " + size + " tasks");
            }
            return ids;
        }
    }

    @Override
    public List<Enqueued> insertAllKeyed(Connection connection, List<NewTask> tasks, String channel)
            throws SQLException {
        Map<String, Long> inserted = new HashMap<>();
        try (PreparedStatement statement = connection.prepareStatement(insertKeyed)) {
            int next = bindColumns(statement, connection, tasks);
            String[] keys = tasks.stream().map(NewTask::uniqueKey).toArray(String[]::new);
            statement.setArray(next, connection.createArrayOf("varchar", keys));
            statement.setString(next + 1, channel);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    inserted.put(rows.getString(2), rows.getLong(1));
                }
            }
        }
        List<Enqueued> enqueued = new ArrayList<>(tasks.size());
        for (NewTask task : tasks) {
            Long id = inserted.remove(task.uniqueKey());
            // A skipped row's key is held: the one-row path finds the holder, or inserts if it just finished.
            enqueued.add(id != null ? new Enqueued(id, true) : insert(connection, task, channel));
        }
        return enqueued;
    }

    /** Binds the eleven column arrays of {@code tasks} from parameter 1; returns the next parameter's index. */
    private static int bindColumns(PreparedStatement statement, Connection connection, List<NewTask> tasks)
            throws SQLException {
        int size = tasks.size();
        String[] kinds = new String[size];
        String[] queues = new String[size];
        String[] payloads = new String[size];
        Integer[] priorities = new Integer[size];
        String[] runAts = new String[size];
        Long[] delays = new Long[size];
        Integer[] maxAttempts = new Integer[size];
        String[] nodes = new String[size];
        String[] groups = new String[size];
        String[] traceParents = new String[size];
        String[] traceStates = new String[size];
        for (int i = 0; i < size; i++) {
            NewTask task = tasks.get(i);
            kinds[i] = task.kind();
            queues[i] = task.queue();
            payloads[i] = task.payloadJson();
            priorities[i] = task.priority();
            runAts[i] = task.runAt() == null ? null : task.runAt().toString();
            delays[i] = task.delayMicros();
            maxAttempts[i] = task.maxAttempts();
            nodes[i] = task.pin().node();
            groups[i] = task.pin().group();
            traceParents[i] = task.trace().traceparent();
            traceStates[i] = task.trace().tracestate();
        }
        statement.setArray(1, connection.createArrayOf("varchar", kinds));
        statement.setArray(2, connection.createArrayOf("varchar", queues));
        statement.setArray(3, connection.createArrayOf("text", payloads));
        statement.setArray(4, connection.createArrayOf("int4", priorities));
        statement.setArray(5, connection.createArrayOf("text", runAts));
        statement.setArray(6, connection.createArrayOf("int8", delays));
        statement.setArray(7, connection.createArrayOf("int4", maxAttempts));
        statement.setArray(8, connection.createArrayOf("varchar", nodes));
        statement.setArray(9, connection.createArrayOf("varchar", groups));
        statement.setArray(10, connection.createArrayOf("varchar", traceParents));
        statement.setArray(11, connection.createArrayOf("varchar", traceStates));
        return 12;
    }
}
