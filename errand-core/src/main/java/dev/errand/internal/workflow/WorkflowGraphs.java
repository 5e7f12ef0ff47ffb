package dev.errand.internal.workflow;

import dev.errand.admin.TaskLinks;
import dev.errand.batch.BatchEvent;
import dev.errand.batch.BatchProgress;
import dev.errand.batch.BatchQuery;
import dev.errand.batch.BatchSummary;
import dev.errand.batch.CallbackState;
import dev.errand.config.TablePrefix;
import dev.errand.event.WaitingTask;
import dev.errand.internal.store.Dialect;
import dev.errand.task.TaskState;
import dev.errand.workflow.WorkflowGraph;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The read side of workflows and batches for the admin API: a workflow's graph (written at enqueue, since the
 * dependency conditions that do the waiting are deleted as they are fulfilled), and the listing of batches with
 * their progress and callbacks.
 */
public final class WorkflowGraphs {

    private final Dialect dialect;
    private final String tasks;
    private final String steps;
    private final String edges;
    private final String batches;
    private final String counters;
    private final String callbacks;
    private final String fired;
    private final String conditions;

    /**
     * Creates the statements.
     *
     * @param dialect the database's dialect
     * @param tables the table prefix
     */
    public WorkflowGraphs(Dialect dialect, TablePrefix tables) {
        this.dialect = dialect;
        this.tasks = tables.taskTable();
        this.steps = tables.workflowStepTable();
        this.edges = tables.workflowEdgeTable();
        this.batches = tables.batchTable();
        this.counters = tables.batchCounterTable();
        this.callbacks = tables.batchCallbackTable();
        this.fired = tables.batchFiredTable();
        this.conditions = tables.conditionTable();
    }

    /**
     * Writes a new workflow's graph, in the transaction that inserts its tasks.
     *
     * @param stepIds each step's task id, by name, in the order the steps were added
     * @param after each edge as {from task id, to task id}
     */
    void write(Connection c, Map<String, Long> stepIds, List<long[]> after) throws SQLException {
        if (stepIds.isEmpty()) {
            return;
        }
        long workflowId = stepIds.values().iterator().next();
        try (PreparedStatement insert =
                c.prepareStatement("INSERT INTO " + steps + " (task_id, workflow_id, step) VALUES (?, ?, ?)")) {
            for (Map.Entry<String, Long> step : stepIds.entrySet()) {
                insert.setLong(1, step.getValue());
                insert.setLong(2, workflowId);
                insert.setString(3, step.getKey());
                insert.addBatch();
            }
            insert.executeBatch();
        }
        if (after.isEmpty()) {
            return;
        }
        try (PreparedStatement insert = c.prepareStatement(
                "INSERT INTO " + edges + " (workflow_id, from_task_id, to_task_id) VALUES (?, ?, ?)")) {
            for (long[] edge : after) {
                insert.setLong(1, workflowId);
                insert.setLong(2, edge[0]);
                insert.setLong(3, edge[1]);
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    /**
     * The workflow a task is a step of, and the step's name.
     *
     * @param workflowId the workflow's id
     * @param step the step's name
     */
    public record Membership(long workflowId, String step) {}

    /** The workflow a task is a step of, if any. */
    public Optional<Membership> membership(Connection c, long taskId) throws SQLException {
        try (PreparedStatement query =
                c.prepareStatement("SELECT workflow_id, step FROM " + steps + " WHERE task_id = ?")) {
            query.setLong(1, taskId);
            try (ResultSet row = query.executeQuery()) {
                return row.next() ? Optional.of(new Membership(row.getLong(1), row.getString(2))) : Optional.empty();
            }
        }
    }

    /** The graph of the workflow a task is a step of, with each step's state now. */
    public Optional<WorkflowGraph> graphOf(Connection c, long taskId) throws SQLException {
        Optional<Membership> membership = membership(c, taskId);
        if (membership.isEmpty()) {
            return Optional.empty();
        }
        long workflowId = membership.get().workflowId();
        List<WorkflowGraph.Step> nodes = new ArrayList<>();
        try (PreparedStatement query = c.prepareStatement("SELECT s.task_id, s.step, t.state FROM " + steps + " s"
                + " LEFT JOIN " + tasks + " t ON t.id = s.task_id WHERE s.workflow_id = ? ORDER BY s.task_id")) {
            query.setLong(1, workflowId);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    String state = rows.getString(3);
                    nodes.add(new WorkflowGraph.Step(
                            rows.getLong(1), rows.getString(2), state == null ? null : TaskState.fromDbValue(state)));
                }
            }
        }
        return Optional.of(new WorkflowGraph(workflowId, nodes, edges(c, workflowId)));
    }

    /** The edges of a workflow, in the order of their steps. */
    public List<WorkflowGraph.Edge> edges(Connection c, long workflowId) throws SQLException {
        List<WorkflowGraph.Edge> found = new ArrayList<>();
        try (PreparedStatement query = c.prepareStatement("SELECT from_task_id, to_task_id FROM " + edges
                + " WHERE workflow_id = ? ORDER BY to_task_id, from_task_id")) {
            query.setLong(1, workflowId);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    found.add(new WorkflowGraph.Edge(rows.getLong(1), rows.getLong(2)));
                }
            }
        }
        return found;
    }

    /**
     * What a task that exists is linked to.
     *
     * @param batchId its {@code batch_id}, 0 for none
     */
    public TaskLinks taskLinks(Connection c, long taskId, long batchId) throws SQLException {
        List<WaitingTask.OpenCondition> open = new ArrayList<>();
        Set<Long> dependsOn = new TreeSet<>();
        try (PreparedStatement query = c.prepareStatement(
                "SELECT event, expires_at FROM " + conditions + " WHERE task_id = ? ORDER BY event")) {
            query.setLong(1, taskId);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    String event = rows.getString(1);
                    open.add(new WaitingTask.OpenCondition(event, dialect.readInstant(rows, "expires_at")));
                    if (event.startsWith(WorkflowStore.AFTER)) {
                        try {
                            dependsOn.add(Long.parseLong(event.substring(WorkflowStore.AFTER.length())));
                        } catch (NumberFormatException notADependency) {
                            // An event that an application named like a dependency: it stays an open condition.
                        }
                    }
                }
            }
        }
        Optional<Membership> membership = membership(c, taskId);
        Set<Long> dependents = new TreeSet<>();
        if (membership.isPresent()) {
            for (WorkflowGraph.Edge edge : edges(c, membership.get().workflowId())) {
                if (edge.toTaskId() == taskId) {
                    dependsOn.add(edge.fromTaskId());
                }
                if (edge.fromTaskId() == taskId) {
                    dependents.add(edge.toTaskId());
                }
            }
        }
        return new TaskLinks(
                batchId == 0 ? null : batchId,
                membership.map(Membership::workflowId).orElse(null),
                membership.map(Membership::step).orElse(null),
                new ArrayList<>(dependsOn),
                new ArrayList<>(dependents),
                open);
    }

    /** Batches as the query says, newest first, with their progress and callbacks. */
    public List<BatchSummary> list(Connection c, BatchQuery query) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT b.id, b.total, b.created_at, b.cancelled_at,"
                + " COALESCE(SUM(k.succeeded), 0) AS succeeded, COALESCE(SUM(k.failed), 0) AS failed,"
                + " COALESCE(SUM(k.cancelled), 0) AS cancelled FROM " + batches + " b LEFT JOIN " + counters
                + " k ON k.batch_id = b.id WHERE 1 = 1");
        List<Object> parameters = new ArrayList<>();
        if (query.beforeId() != null) {
            sql.append(" AND b.id < ?");
            parameters.add(query.beforeId());
        }
        if (query.createdFrom() != null) {
            sql.append(" AND b.created_at >= ").append(dialect.timestampParam());
            parameters.add(dialect.timestampValue(query.createdFrom()));
        }
        if (query.createdBefore() != null) {
            sql.append(" AND b.created_at < ").append(dialect.timestampParam());
            parameters.add(dialect.timestampValue(query.createdBefore()));
        }
        sql.append(" GROUP BY b.id, b.total, b.created_at, b.cancelled_at");
        if (query.finished() != null) {
            sql.append(" HAVING COALESCE(SUM(k.succeeded), 0) + COALESCE(SUM(k.failed), 0)"
                            + " + COALESCE(SUM(k.cancelled), 0) ")
                    .append(query.finished() ? ">=" : "<")
                    .append(" b.total");
        }
        sql.append(" ORDER BY b.id DESC LIMIT ?");
        parameters.add(query.limit());
        List<BatchProgress> progress = new ArrayList<>();
        Map<Long, Instant> created = new HashMap<>();
        try (PreparedStatement statement = c.prepareStatement(sql.toString())) {
            for (int i = 0; i < parameters.size(); i++) {
                Object parameter = parameters.get(i);
                if (parameter instanceof Long id) {
                    statement.setLong(i + 1, id);
                } else if (parameter instanceof Integer limit) {
                    statement.setInt(i + 1, limit);
                } else {
                    statement.setObject(i + 1, parameter);
                }
            }
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    long id = rows.getLong("id");
                    progress.add(new BatchProgress(
                            id,
                            rows.getLong("total"),
                            rows.getLong("succeeded"),
                            rows.getLong("failed"),
                            rows.getLong("cancelled"),
                            dialect.readInstant(rows, "cancelled_at")));
                    created.put(id, dialect.readInstant(rows, "created_at"));
                }
            }
        }
        if (progress.isEmpty()) {
            return List.of();
        }
        long[] ids = progress.stream().mapToLong(BatchProgress::batchId).toArray();
        Map<Long, Map<BatchEvent, CallbackState>> states = new HashMap<>();
        try (PreparedStatement declared = c.prepareStatement(
                "SELECT batch_id, on_event FROM " + callbacks + " WHERE " + dialect.idIn("batch_id", ids.length))) {
            dialect.bindIds(declared, 1, ids);
            try (ResultSet rows = declared.executeQuery()) {
                while (rows.next()) {
                    states.computeIfAbsent(rows.getLong(1), id -> new EnumMap<>(BatchEvent.class))
                            .put(event(rows.getString(2)), new CallbackState(null));
                }
            }
        }
        try (PreparedStatement firedOnes = c.prepareStatement("SELECT batch_id, on_event, task_id FROM " + fired
                + " WHERE " + dialect.idIn("batch_id", ids.length))) {
            dialect.bindIds(firedOnes, 1, ids);
            try (ResultSet rows = firedOnes.executeQuery()) {
                while (rows.next()) {
                    states.computeIfAbsent(rows.getLong(1), id -> new EnumMap<>(BatchEvent.class))
                            .put(event(rows.getString(2)), new CallbackState(rows.getLong(3)));
                }
            }
        }
        List<BatchSummary> summaries = new ArrayList<>(progress.size());
        for (BatchProgress batch : progress) {
            summaries.add(new BatchSummary(
                    batch, created.get(batch.batchId()), states.getOrDefault(batch.batchId(), Map.of())));
        }
        return summaries;
    }

    private static BatchEvent event(String dbValue) {
        return BatchEvent.valueOf(dbValue.toUpperCase(Locale.ROOT));
    }
}
