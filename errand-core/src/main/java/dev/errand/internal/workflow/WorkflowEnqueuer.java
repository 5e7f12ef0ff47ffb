package dev.errand.internal.workflow;

import dev.errand.batch.BatchEvent;
import dev.errand.batch.BatchRequest;
import dev.errand.batch.EnqueuedBatch;
import dev.errand.enqueue.Enqueued;
import dev.errand.enqueue.TaskRequest;
import dev.errand.error.ErrandException;
import dev.errand.internal.enqueue.Requests;
import dev.errand.internal.event.EventGate;
import dev.errand.internal.store.Jdbc;
import dev.errand.internal.store.NewTask;
import dev.errand.internal.store.Storage;
import dev.errand.internal.store.TaskGate;
import dev.errand.internal.store.TaskInserter;
import dev.errand.internal.wakeup.WakeUps;
import dev.errand.workflow.DependencyPolicy;
import dev.errand.workflow.EnqueuedWorkflow;
import dev.errand.workflow.Workflow;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * Inserts workflows and batches on a connection, in its transaction: the tasks, then their links (the
 * batch, the dependency conditions, the policy), so that nothing is claimable before all of it commits.
 */
public final class WorkflowEnqueuer {

    private final Storage storage;
    private final WorkflowStore workflows;
    private final Requests requests;
    private final TaskInserter inserter;
    private final EventGate gate;
    private final WakeUps wakeUps;

    /**
     * Creates the enqueuer.
     *
     * @param storage the task table
     * @param workflows the statements on links and batches
     * @param gate the conditions of steps that wait for events
     * @param requests turns requests into rows
     * @param wakeUps this node's pollers' signals, for wake-ups after a commit
     */
    public WorkflowEnqueuer(
            Storage storage, WorkflowStore workflows, EventGate gate, Requests requests, WakeUps wakeUps) {
        this.storage = storage;
        this.workflows = workflows;
        this.requests = requests;
        this.inserter = storage.inserter();
        this.gate = gate;
        this.wakeUps = wakeUps;
    }

    /**
     * Enqueues a workflow on the caller's connection, in the caller's transaction; wakes the pollers when the
     * connection commits by itself.
     */
    public EnqueuedWorkflow enqueue(Connection connection, Workflow workflow) {
        requireConnection(connection);
        Map<String, NewTask> rows = resolve(requireWorkflow(workflow));
        try {
            EnqueuedWorkflow enqueued = Jdbc.atomically(connection, c -> insert(c, workflow, rows));
            if (connection.getAutoCommit()) {
                queues(rows.values()).forEach(wakeUps::wake);
            }
            return enqueued;
        } catch (SQLException e) {
            throw new ErrandException("enqueueWorkflow", e);
        }
    }

    /** Enqueues a workflow in a transaction of its own, then wakes the pollers of its queues. */
    public EnqueuedWorkflow enqueue(Workflow workflow) {
        Map<String, NewTask> rows = resolve(requireWorkflow(workflow));
        try {
            EnqueuedWorkflow enqueued = storage.transactions().run("enqueueWorkflow", c -> insert(c, workflow, rows));
            queues(rows.values()).forEach(wakeUps::wake);
            return enqueued;
        } catch (SQLException e) {
            throw new ErrandException("enqueueWorkflow", e);
        }
    }

    /**
     * Enqueues a batch on the caller's connection, in the caller's transaction; wakes the pollers when the
     * connection commits by itself.
     */
    public EnqueuedBatch enqueue(Connection connection, BatchRequest batch) {
        requireConnection(connection);
        Set<String> queues = check(requireBatch(batch));
        try {
            EnqueuedBatch enqueued = Jdbc.atomically(connection, c -> insert(c, batch));
            if (connection.getAutoCommit()) {
                queues.forEach(wakeUps::wake);
            }
            return enqueued;
        } catch (SQLException e) {
            throw new ErrandException("enqueueBatch", e);
        }
    }

    /** Enqueues a batch in a transaction of its own, then wakes the pollers of its queues. */
    public EnqueuedBatch enqueue(BatchRequest batch) {
        Set<String> queues = check(requireBatch(batch));
        try {
            EnqueuedBatch enqueued = storage.transactions().run("enqueueBatch", c -> insert(c, batch));
            queues.forEach(wakeUps::wake);
            return enqueued;
        } catch (SQLException e) {
            throw new ErrandException("enqueueBatch", e);
        }
    }

    private static void requireConnection(Connection connection) {
        if (connection == null) {
            throw new IllegalArgumentException("connection must not be null: pass the connection of the"
                    + " transaction the tasks belong to, or use the overload without one");
        }
    }

    private static Workflow requireWorkflow(Workflow workflow) {
        if (workflow == null) {
            throw new IllegalArgumentException("workflow must not be null: build one with Workflow.builder()");
        }
        return workflow;
    }

    private static BatchRequest requireBatch(BatchRequest batch) {
        if (batch == null) {
            throw new IllegalArgumentException("batch must not be null: build one with BatchRequest.builder()");
        }
        return batch;
    }

    /**
     * Resolves every request of a workflow first, so that a bad one throws before anything is written.
     *
     * @return the steps' rows, by name, without their dependency conditions
     */
    public Map<String, NewTask> resolve(Workflow workflow) {
        Map<String, NewTask> rows = new LinkedHashMap<>();
        workflow.steps().forEach((name, step) -> rows.put(name, requests.resolve(step.request())));
        return rows;
    }

    /** Inserts a workflow whose rows {@link #resolve} made; the caller owns the transaction. */
    public EnqueuedWorkflow insert(Connection c, Workflow workflow, Map<String, NewTask> rows) throws SQLException {
        WorkflowStore store = workflows;
        Map<String, Long> ids = new LinkedHashMap<>();
        Set<Long> predecessors = new LinkedHashSet<>();
        List<Long> dependents = new ArrayList<>();
        List<long[]> edges = new ArrayList<>();
        for (Workflow.Step step : workflow.steps().values()) {
            NewTask row = rows.get(step.name());
            List<TaskGate.NewCondition> conditions = new ArrayList<>(row.gate().conditions());
            for (String after : step.after()) {
                long predecessor = ids.get(after);
                predecessors.add(predecessor);
                conditions.add(new TaskGate.NewCondition(WorkflowStore.after(predecessor), null, null));
            }
            NewTask gated = new NewTask(
                    row.kind(),
                    row.queue(),
                    row.payloadJson(),
                    row.placement(),
                    new TaskGate(conditions, row.gate().expiresAt(), row.gate().expiresInMicros()));
            Enqueued enqueued = inserter.insert(c, gated, store.channel());
            if (!conditions.isEmpty()) {
                gate.admit(c, enqueued.id(), gated.gate());
            }
            for (String after : step.after()) {
                edges.add(new long[] {ids.get(after), enqueued.id()});
            }
            if (!step.after().isEmpty()) {
                dependents.add(enqueued.id());
            }
            ids.put(step.name(), enqueued.id());
        }
        store.markHasDependents(
                c, predecessors.stream().mapToLong(Long::longValue).toArray());
        store.setDependencyPolicy(
                c, dependents.stream().mapToLong(Long::longValue).toArray(), workflow.policy() == DependencyPolicy.RUN);
        store.graphs().write(c, ids, edges);
        return new EnqueuedWorkflow(ids);
    }

    /** How many members of a batch are resolved and written at a time: one multi-row insert, one update. */
    static final int BATCH_CHUNK = 5_000;

    /**
     * Checks every request of a batch, its tasks and not yet its callbacks (which need its id), so that a bad
     * one throws before anything is written. The resolved rows are not kept: {@link #insert} resolves them
     * again, a chunk at a time, so that a batch of millions never has all its rows in memory at once beyond
     * the caller's own requests.
     *
     * @return the queues of its tasks, to wake after the commit
     */
    public Set<String> check(BatchRequest batch) {
        Set<String> queues = new LinkedHashSet<>();
        for (TaskRequest request : batch.tasks()) {
            queues.add(requests.resolve(request).queue());
        }
        return queues;
    }

    /**
     * Inserts a batch that {@link #check} accepted; the caller owns the transaction. Its tasks go in chunks of
     * {@value #BATCH_CHUNK}: each chunk is resolved, inserted in one multi-row insert and put in the batch.
     */
    public EnqueuedBatch insert(Connection c, BatchRequest batch) throws SQLException {
        WorkflowStore store = workflows;
        List<TaskRequest> requested = batch.tasks();
        long batchId = store.createBatch(c, requested.size());
        for (Map.Entry<BatchEvent, LongFunction<TaskRequest>> callback :
                batch.callbacks().entrySet()) {
            TaskRequest request = callback.getValue().apply(batchId);
            if (request == null) {
                throw new IllegalArgumentException(
                        "The " + callback.getKey() + " callback of the batch returned no request; return one built"
                                + " with TaskRequest.of(kind, payload)");
            }
            if (request.uniqueKey() != null) {
                throw new IllegalArgumentException("A batch callback cannot have a unique key; it runs once anyway");
            }
            store.insertCallback(c, batchId, callback.getKey().dbValue(), requests.resolve(request));
        }
        long[] ids = new long[requested.size()];
        for (int from = 0; from < requested.size(); from += BATCH_CHUNK) {
            int to = Math.min(requested.size(), from + BATCH_CHUNK);
            List<NewTask> rows = new ArrayList<>(to - from);
            for (TaskRequest request : requested.subList(from, to)) {
                rows.add(requests.resolve(request));
            }
            insertChunk(c, rows, ids, from);
            store.setBatch(c, batchId, java.util.Arrays.copyOfRange(ids, from, to));
        }
        return new EnqueuedBatch(batchId, java.util.Arrays.stream(ids).boxed().toList());
    }

    /** Inserts one chunk's rows and writes their ids into {@code ids} from {@code offset}. */
    private void insertChunk(Connection c, List<NewTask> rows, long[] ids, int offset) throws SQLException {
        WorkflowStore store = workflows;
        List<NewTask> plain = new ArrayList<>(rows.size());
        for (NewTask row : rows) {
            if (row.plain()) {
                plain.add(row);
            }
        }
        long[] plainIds = plain.isEmpty() ? new long[0] : inserter.insertAll(c, plain, store.channel());
        int next = 0;
        for (int i = 0; i < rows.size(); i++) {
            NewTask row = rows.get(i);
            if (row.plain()) {
                ids[offset + i] = plainIds[next++];
            } else {
                ids[offset + i] = inserter.insert(c, row, store.channel()).id();
                if (!row.gate().conditions().isEmpty()) {
                    gate.admit(c, ids[offset + i], row.gate());
                }
            }
        }
    }

    /** The queues of rows, to wake after the commit. */
    public static Set<String> queues(Iterable<NewTask> rows) {
        Set<String> queues = new LinkedHashSet<>();
        rows.forEach(row -> queues.add(row.queue()));
        return queues;
    }
}
