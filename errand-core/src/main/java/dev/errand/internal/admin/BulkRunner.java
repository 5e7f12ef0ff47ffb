package dev.errand.internal.admin;

import dev.errand.admin.BulkOptions;
import dev.errand.admin.BulkResult;
import dev.errand.admin.TaskQuery;
import dev.errand.internal.store.Dialect;
import dev.errand.internal.store.Jdbc;
import dev.errand.internal.store.States;
import dev.errand.internal.store.Storage;
import dev.errand.internal.workflow.Finish;
import dev.errand.internal.workflow.Finisher;
import dev.errand.spi.ClaimedTask;
import dev.errand.task.TaskState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Runs a bulk action on a filter in chunks: each chunk reads the next ids of the filter in id order, locks those
 * still in a state the action applies to with {@code FOR UPDATE SKIP LOCKED}, and acts on the locked ones, all in
 * one transaction of its own. A row locked elsewhere (a worker's transaction) is skipped, never waited for, so
 * a million matches hold no lock for long.
 */
final class BulkRunner {

    private final Storage storage;
    private final Dialect dialect;
    private final String table;
    private final Finisher finisher;

    BulkRunner(Storage storage, Finisher finisher) {
        this.storage = storage;
        this.dialect = storage.dialect();
        this.table = storage.tasks().table();
        this.finisher = finisher;
    }

    /** A task a chunk locked, with what its bookkeeping needs. */
    record Locked(long id, String kind, TaskState state, ClaimedTask.Links links) {}

    /** What an action does to the tasks a chunk locked, in the chunk's transaction. */
    @FunctionalInterface
    interface Action {
        /**
         * Acts on the locked tasks (in id order, in the action's states).
         *
         * @return how many it changed
         */
        long apply(Connection c, Finish finish, List<Locked> tasks) throws SQLException;
    }

    /** An action bound to its chunk's unit of ending. */
    @FunctionalInterface
    private interface ChunkWork {
        long apply(Connection c, List<Locked> tasks) throws SQLException;
    }

    /**
     * Runs {@code action} on the tasks in {@code states} that match {@code filter}, chunk by chunk.
     *
     * @param operation the name in errors and metrics, such as {@code retryAll}
     */
    BulkResult run(String operation, TaskQuery filter, BulkOptions options, Set<TaskState> states, Action action)
            throws SQLException {
        TaskFilter base = TaskFilter.of(storage, filter, true).and("state IN " + literals(states));
        long upToId = options.upToId();
        long last = 0;
        long matched = 0;
        long changed = 0;
        int chunks = 0;
        while (matched < options.atMost()) {
            int size = (int) Math.min(options.chunkSize(), options.atMost() - matched);
            long from = last;
            Chunk chunk;
            // One unit of ending per chunk: closing it checks again the batches the chunk brought near their end.
            try (Finish finish = finisher.open()) {
                chunk = storage.transactions()
                        .run(
                                "admin " + operation,
                                c -> chunk(
                                        c,
                                        base,
                                        from,
                                        upToId,
                                        size,
                                        states,
                                        (locked, tasks) -> action.apply(locked, finish, tasks)));
            }
            if (chunk.candidates() == 0) {
                break;
            }
            chunks++;
            matched += chunk.candidates();
            changed += chunk.changed();
            last = chunk.lastId();
            // After the commit: what a listener sees is done, whatever happens next.
            options.progress().accept(new BulkResult(matched, changed, matched - changed, chunks));
            if (chunk.candidates() < size) {
                break;
            }
        }
        return new BulkResult(matched, changed, matched - changed, chunks);
    }

    private record Chunk(int candidates, long changed, long lastId) {}

    private Chunk chunk(
            Connection c, TaskFilter base, long after, long upToId, int size, Set<TaskState> states, ChunkWork action)
            throws SQLException {
        TaskFilter filter = base.and("id > ?", after).and("id <= ?", upToId);
        long[] candidates;
        try (PreparedStatement select =
                c.prepareStatement("SELECT id FROM " + table + filter.joinAndWhere() + " ORDER BY id LIMIT " + size)) {
            filter.bind(select, 1);
            candidates = Jdbc.readIds(select);
        }
        if (candidates.length == 0) {
            return new Chunk(0, 0, after);
        }
        List<Locked> locked = new ArrayList<>(candidates.length);
        try (PreparedStatement lock = c.prepareStatement("SELECT id, kind, state, batch_id, has_dependents FROM "
                + table + " WHERE " + dialect.idIn("id", candidates.length) + " AND state IN " + literals(states)
                + " ORDER BY id FOR UPDATE SKIP LOCKED")) {
            dialect.bindIds(lock, 1, candidates);
            try (ResultSet rows = lock.executeQuery()) {
                while (rows.next()) {
                    long batch = rows.getLong("batch_id");
                    boolean hasDependents = rows.getBoolean("has_dependents");
                    locked.add(new Locked(
                            rows.getLong("id"),
                            rows.getString("kind"),
                            TaskState.fromDbValue(rows.getString("state")),
                            batch == 0 && !hasDependents
                                    ? ClaimedTask.Links.NONE
                                    : new ClaimedTask.Links(batch, hasDependents)));
                }
            }
        }
        long changed = locked.isEmpty() ? 0 : action.apply(c, locked);
        return new Chunk(candidates.length, changed, candidates[candidates.length - 1]);
    }

    /** The ids of tasks, for {@link Dialect#idIn}. */
    static long[] ids(List<Locked> tasks) {
        return tasks.stream().mapToLong(Locked::id).toArray();
    }

    static String literals(Set<TaskState> states) {
        return States.in(states.toArray(TaskState[]::new));
    }
}
