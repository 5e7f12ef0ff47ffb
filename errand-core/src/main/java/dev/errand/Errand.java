package dev.errand;

import dev.errand.admin.TaskAdmin;
import dev.errand.batch.BatchAdmin;
import dev.errand.batch.BatchRequest;
import dev.errand.batch.EnqueuedBatch;
import dev.errand.config.ErrandSettings;
import dev.errand.enqueue.Enqueued;
import dev.errand.enqueue.TaskRequest;
import dev.errand.error.ErrandException;
import dev.errand.event.EventAdmin;
import dev.errand.event.Triggered;
import dev.errand.flow.FlowAdmin;
import dev.errand.history.HistoryAdmin;
import dev.errand.internal.node.Node;
import dev.errand.internal.node.Nodes;
import dev.errand.node.ClusterAdmin;
import dev.errand.node.NodeHealth;
import dev.errand.node.NodeStats;
import dev.errand.node.QueueActivity;
import dev.errand.process.ProcessAdmin;
import dev.errand.schedule.ScheduleAdmin;
import dev.errand.workflow.EnqueuedWorkflow;
import dev.errand.workflow.Workflow;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * One Errand node: enqueue tasks into the application's database, run them, and administer them.
 *
 * <pre>{@code
 * TaskKind<Email> SEND_EMAIL = TaskKind.of("send-email", Email.class);
 * Errand errand = Errand.builder(dataSource)
 *         .register(TaskDefinition.builder(SEND_EMAIL, (email, ctx) -> mailer.send(email))
 *                 .mode(ExecutionMode.NON_TRANSACTIONAL)
 *                 .build())
 *         .build();
 * errand.start();
 * errand.enqueue(connection, TaskRequest.of(SEND_EMAIL, new Email("a@example.com", "Hi")));
 * }</pre>
 *
 * <p>Thread-safe. {@link #close()} stops it gracefully. Database failures throw
 * {@link ErrandException}; bad arguments throw {@link IllegalArgumentException}.
 */
public final class Errand implements AutoCloseable {

    private final Node node;

    Errand(Node node) {
        this.node = node;
        Nodes.register(this, node);
    }

    /** Starts configuring an Errand node on the application's DataSource. */
    public static ErrandBuilder builder(DataSource dataSource) {
        return new ErrandBuilder(dataSource);
    }

    /**
     * Starts the node: registers it in the node registry, starts its cluster heartbeat and command
     * reader, and runs tasks unless processing is turned off. Calling it again while running has no
     * further effect; calling it after {@link #stop()} starts the node again in the same JVM.
     *
     * @throws ErrandException if the node cannot register
     */
    public void start() {
        node.start();
    }

    /**
     * Stops gracefully, waiting up to the configured shutdown timeout.
     *
     * @return true if every running task finished in time
     */
    public boolean stop() {
        return stop(settings().shutdownTimeout());
    }

    /**
     * Stops gracefully: stop claiming, release claimed tasks that have not started, and wait up to
     * {@code timeout} for running ones, then mark the node as stopped in the registry (and give up the
     * leader lease if it held it). Tasks still running then are interrupted; their leases expire and
     * another node (or this one after a restart) rescues them. {@link #start()} starts it again.
     *
     * @return true if every running task finished in time
     */
    public boolean stop(Duration timeout) {
        return node.stop(timeout);
    }

    /** Makes every queue of this node claim now instead of at its next poll. */
    public void repoll() {
        node.repoll();
    }

    /**
     * Flow control: the cluster-wide limits per kind in force, their slots in use and waiting tasks, and
     * run-time changes of them. See docs/FLOW-CONTROL.md.
     */
    public FlowAdmin flow() {
        return node.flow();
    }

    /** The cluster: node registry, leader, commands to other nodes, cluster-wide queue controls. */
    public ClusterAdmin cluster() {
        return node.cluster();
    }

    /** Whether this node holds the leader lease (as of its last heartbeat). */
    public boolean isLeader() {
        return node.isLeader();
    }

    /** Stops gracefully with the configured timeout. */
    @Override
    public void close() {
        stop();
    }

    /** Whether this node is running tasks. */
    public boolean isRunning() {
        return node.isRunning();
    }

    /**
     * Enqueues a task on the caller's connection, inside the caller's transaction: the task exists if
     * and only if that transaction commits.
     *
     * @return the task, and whether it is new or an active task that already held the request's unique key
     * @throws IllegalArgumentException for a bad request: unknown queue, a payload of the wrong type or
     *     that cannot be written, null
     * @throws ErrandException if the insert fails
     */
    public Enqueued enqueue(Connection connection, TaskRequest request) {
        return node.enqueue(connection, request);
    }

    /**
     * Enqueues a task in a transaction of its own.
     *
     * @return the task, and whether it is new or deduplicated by its unique key
     * @throws IllegalArgumentException for a bad request
     * @throws ErrandException if the insert fails
     */
    public Enqueued enqueue(TaskRequest request) {
        return node.enqueue(request);
    }

    /**
     * Enqueues many tasks on the caller's connection; tasks without a unique key go in one round trip.
     *
     * @return what each request did, in request order
     * @throws IllegalArgumentException for a bad request; nothing is inserted
     * @throws ErrandException if the insert fails
     */
    public List<Enqueued> enqueueAll(Connection connection, List<TaskRequest> requests) {
        return node.enqueueAll(connection, requests);
    }

    /**
     * Enqueues many tasks in one transaction of their own.
     *
     * @return what each request did, in request order
     * @throws IllegalArgumentException for a bad request; nothing is inserted
     * @throws ErrandException if the insert fails; nothing is inserted
     */
    public List<Enqueued> enqueueAll(List<TaskRequest> requests) {
        return node.enqueueAll(requests);
    }

    /**
     * Enqueues a workflow on the caller's connection, inside the caller's transaction: all its steps exist
     * if and only if that transaction commits. Steps with dependencies wait until those have succeeded.
     *
     * @return each step's task id
     * @throws IllegalArgumentException if the connection or workflow is null, or a step's request is bad;
     *     nothing is inserted
     * @throws ErrandException if the insert fails
     */
    public EnqueuedWorkflow enqueueWorkflow(Connection connection, Workflow workflow) {
        return node.workflows().enqueue(connection, workflow);
    }

    /**
     * Enqueues a workflow in a transaction of its own; see {@link #enqueueWorkflow(Connection, Workflow)}.
     *
     * @return each step's task id
     * @throws IllegalArgumentException if the workflow is null or a step's request is bad
     * @throws ErrandException if the insert fails; nothing is inserted
     */
    public EnqueuedWorkflow enqueueWorkflow(Workflow workflow) {
        return node.workflows().enqueue(workflow);
    }

    /**
     * Enqueues a batch on the caller's connection, inside the caller's transaction: the batch, its tasks
     * and its callbacks exist if and only if that transaction commits.
     *
     * @return the batch's id and its tasks' ids
     * @throws IllegalArgumentException if the connection or batch is null, or a request is bad; nothing is
     *     inserted
     * @throws ErrandException if the insert fails
     */
    public EnqueuedBatch enqueueBatch(Connection connection, BatchRequest batch) {
        return node.workflows().enqueue(connection, batch);
    }

    /**
     * Enqueues a batch in a transaction of its own; see {@link #enqueueBatch(Connection, BatchRequest)}.
     *
     * @return the batch's id and its tasks' ids
     * @throws IllegalArgumentException if the batch is null or a request is bad
     * @throws ErrandException if the insert fails; nothing is inserted
     */
    public EnqueuedBatch enqueueBatch(BatchRequest batch) {
        return node.workflows().enqueue(batch);
    }

    /** Batches: their progress, cancelling them, and the callbacks that fired. */
    public BatchAdmin batches() {
        return node.batches();
    }

    /** Distributed processes: start them, read their turns and failed batches, wait for, cancel and re-run them. */
    public ProcessAdmin processes() {
        return node.processes();
    }

    /**
     * Triggers an event on the caller's connection, inside the caller's transaction: every waiting task
     * that has it as a condition has that condition fulfilled, and those that wait for nothing else become
     * pending, when the transaction commits. If no task waits for it, the event is stored as premature and
     * the next task enqueued with it as a condition does not wait for it.
     *
     * @return what the trigger did
     * @throws IllegalArgumentException if the connection is null or the name is not a valid event name
     * @throws ErrandException if the database fails
     */
    public Triggered triggerEvent(Connection connection, String event) {
        return node.events().trigger(connection, event);
    }

    /**
     * Triggers an event in a transaction of its own; see {@link #triggerEvent(Connection, String)}.
     *
     * @return what the trigger did
     * @throws IllegalArgumentException if the name is not a valid event name
     * @throws ErrandException if the database fails
     */
    public Triggered triggerEvent(String event) {
        return node.events().trigger(event);
    }

    /**
     * The attempt history: every ended attempt of every task, with its node, times, outcome and error, kept
     * after the task is gone (for {@code historyRetention}, default 7 days). Empty while history is off, as it
     * is by default ({@code ErrandBuilder.historyEnabled(true)} turns it on).
     */
    public HistoryAdmin history() {
        return node.history();
    }

    /** Events: trigger them, list the tasks that wait and the premature events, delete premature events. */
    public EventAdmin events() {
        return node.events();
    }

    /**
     * Wakes this node's poller of a queue, for example right after the caller's transaction committed. A queue
     * this node does not declare has no poller: nothing happens.
     *
     * @throws IllegalArgumentException if the queue is null
     */
    public void wakeUp(String queue) {
        node.wakeUp(queue);
    }

    /**
     * The recurring schedules: list, add or change, pause, resume and remove them at run time, cluster-wide.
     */
    public ScheduleAdmin schedules() {
        return node.schedules();
    }

    /** The admin API: find, list, count, cancel, retry, reschedule and delete tasks. */
    public TaskAdmin admin() {
        return node.admin();
    }

    /** This node's counters. */
    public NodeStats stats() {
        return node.stats();
    }

    /** Whether this node's engine threads can do their work; see {@link NodeHealth}. */
    public NodeHealth health() {
        return node.health();
    }

    /** What each queue does on this node now: executing and buffered tasks. Empty until started. */
    public Map<String, QueueActivity> activity() {
        return node.activity();
    }

    /** The settings this node runs with. */
    public ErrandSettings settings() {
        return node.settings();
    }

    /** The detected database dialect's name, such as {@code postgresql} or {@code h2}. */
    public String dialectName() {
        return node.dialectName();
    }
}
