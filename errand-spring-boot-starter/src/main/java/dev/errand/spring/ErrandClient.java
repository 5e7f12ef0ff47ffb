package dev.errand.spring;

import dev.errand.Errand;
import dev.errand.batch.BatchAdmin;
import dev.errand.batch.BatchRequest;
import dev.errand.batch.EnqueuedBatch;
import dev.errand.config.ErrandSettings;
import dev.errand.enqueue.Enqueued;
import dev.errand.enqueue.TaskRequest;
import dev.errand.error.ErrandException;
import dev.errand.event.Condition;
import dev.errand.event.Triggered;
import dev.errand.node.NodeTarget;
import dev.errand.task.TaskKind;
import dev.errand.workflow.EnqueuedWorkflow;
import dev.errand.workflow.Workflow;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import javax.sql.DataSource;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.jdbc.support.SQLExceptionSubclassTranslator;
import org.springframework.jdbc.support.SQLExceptionTranslator;
import org.springframework.transaction.IllegalTransactionStateException;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Enqueues tasks and triggers events from Spring code.
 *
 * <ul>
 *   <li><b>Inside a Spring-managed transaction</b> ({@code @Transactional}, {@code TransactionTemplate},
 *       with a {@code DataSourceTransactionManager} or {@code JpaTransactionManager} for Errand's
 *       DataSource) the insert runs on that transaction's connection: the task exists if and only if the
 *       transaction commits. After the commit this node's poller of the task's queue is woken at once.</li>
 *   <li><b>Outside a transaction</b> the insert runs in a short transaction of its own and is committed
 *       before the method returns.</li>
 * </ul>
 *
 * <p>With {@code errand.enqueue.require-transaction=true}, an enqueue outside a transaction throws
 * {@link IllegalTransactionStateException} instead.
 *
 * <p>Database errors are thrown as Spring's {@link DataAccessException}, a runtime exception, so a
 * {@code @Transactional} method that lets one escape rolls back. Thread-safe.
 */
public final class ErrandClient {

    private final Errand errand;
    private final DataSource dataSource;
    private final boolean requireTransaction;
    private final SQLExceptionTranslator translator = new SQLExceptionSubclassTranslator();

    /**
     * Creates a client.
     *
     * @param errand the node that writes the tasks
     * @param dataSource the DataSource that node was built on; its Spring transactions are joined
     */
    public ErrandClient(Errand errand, DataSource dataSource) {
        this(errand, dataSource, false);
    }

    /**
     * Creates a client that may refuse to enqueue outside a transaction.
     *
     * @param errand the node that writes the tasks
     * @param dataSource the DataSource that node was built on; its Spring transactions are joined
     * @param requireTransaction whether an enqueue outside a Spring-managed transaction throws
     *     {@link IllegalTransactionStateException}, as {@code Propagation.MANDATORY} does
     *     ({@code errand.enqueue.require-transaction})
     */
    public ErrandClient(Errand errand, DataSource dataSource, boolean requireTransaction) {
        this.errand = Objects.requireNonNull(errand, "errand must not be null");
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource must not be null");
        this.requireTransaction = requireTransaction;
    }

    /**
     * Enqueues a task of {@code kind} with default options.
     *
     * @return the task's id, and whether it was created or an active task holding the same unique key
     *     was found
     * @throws IllegalArgumentException for a bad request, such as an undeclared queue
     * @throws DataAccessException if the insert fails
     */
    public Enqueued enqueue(String kind, Object payload) {
        return enqueue(TaskRequest.of(kind, payload));
    }

    /**
     * Enqueues a task of a typed {@code kind} with default options.
     *
     * @return the task's id, and whether it was created
     * @throws IllegalArgumentException for a bad request, such as a payload of the wrong type
     * @throws DataAccessException if the insert fails
     */
    public <P> Enqueued enqueue(TaskKind<P> kind, P payload) {
        return enqueue(TaskRequest.of(kind, payload));
    }

    /**
     * Enqueues a task.
     *
     * @return the task's id, and whether it was created or an active task holding the same unique key
     *     was found
     * @throws IllegalArgumentException for a bad request, such as an undeclared queue
     * @throws DataAccessException if the insert fails
     */
    public Enqueued enqueue(TaskRequest request) {
        Objects.requireNonNull(request, "request must not be null");
        return inCallersTransaction(
                "enqueue",
                connection -> errand.enqueue(connection, request),
                () -> errand.enqueue(request),
                result -> queuesOf(List.of(request)));
    }

    /**
     * Enqueues several tasks; those without a unique key are inserted in one round trip.
     *
     * @return the results, in request order
     * @throws IllegalArgumentException for a bad request
     * @throws DataAccessException if the insert fails
     */
    public List<Enqueued> enqueueAll(List<TaskRequest> requests) {
        Objects.requireNonNull(requests, "requests must not be null");
        return inCallersTransaction(
                "enqueueAll",
                connection -> errand.enqueueAll(connection, requests),
                () -> errand.enqueueAll(requests),
                result -> queuesOf(requests));
    }

    /**
     * Triggers an event: inside a Spring-managed transaction on its connection, so that the tasks it
     * releases become pending if and only if the transaction commits (this node's pollers are woken after
     * the commit); outside one in a transaction of its own. If no task waits for the event it is stored
     * as premature, for the next task enqueued with it as a condition.
     *
     * @return what the trigger did
     * @throws IllegalArgumentException if the name is not a valid event name
     * @throws DataAccessException if the database fails
     */
    public Triggered triggerEvent(String event) {
        Condition.requireEvent(event);
        return inCallersTransaction(
                "triggerEvent",
                connection -> errand.triggerEvent(connection, event),
                () -> errand.triggerEvent(event),
                triggered -> triggered.releasedTasks() == 0
                        ? Set.of()
                        : errand.settings().queues().keySet());
    }

    /**
     * Enqueues a workflow: inside a Spring-managed transaction on its connection, so that all its steps
     * exist if and only if the transaction commits; outside one in a transaction of its own. A step runs
     * once every step it comes after has succeeded.
     *
     * @return each step's task id
     * @throws IllegalArgumentException for a bad step request
     * @throws DataAccessException if the insert fails
     */
    public EnqueuedWorkflow enqueueWorkflow(Workflow workflow) {
        Objects.requireNonNull(workflow, "workflow must not be null: build one with Workflow.builder()");
        List<TaskRequest> steps = new ArrayList<>();
        workflow.steps().values().forEach(step -> steps.add(step.request()));
        return inCallersTransaction(
                "enqueueWorkflow",
                connection -> errand.enqueueWorkflow(connection, workflow),
                () -> errand.enqueueWorkflow(workflow),
                result -> queuesOf(steps));
    }

    /**
     * Enqueues a batch: inside a Spring-managed transaction on its connection, so that the batch, its tasks
     * and its callbacks exist if and only if the transaction commits; outside one in a transaction of its
     * own. Read its progress and cancel it with {@code errand().batches()}.
     *
     * @return the batch's id and its tasks' ids
     * @throws IllegalArgumentException for a bad request
     * @throws DataAccessException if the insert fails
     */
    public EnqueuedBatch enqueueBatch(BatchRequest batch) {
        Objects.requireNonNull(batch, "batch must not be null: build one with BatchRequest.builder()");
        return inCallersTransaction(
                "enqueueBatch",
                connection -> errand.enqueueBatch(connection, batch),
                () -> errand.enqueueBatch(batch),
                result -> queuesOf(batch.tasks()));
    }

    /**
     * Starts a distributed process: inside a Spring-managed transaction on its connection, so that the process and
     * its first turn's batches exist if and only if the transaction commits (a query is read page by page on that
     * connection); outside one in a transaction of its own.
     *
     * @return the process id
     * @throws IllegalArgumentException for a bad request, a process this node does not register, or an id that exists
     * @throws DataAccessException if the database fails
     */
    public String startProcess(dev.errand.process.ProcessRequest<?> request) {
        Objects.requireNonNull(request, "request must not be null: build one with ProcessRequest.builder(kind)");
        return inCallersTransaction(
                "startProcess",
                connection -> errand.processes().start(connection, request),
                () -> errand.processes().start(request),
                result -> Set.of(request.queue()));
    }

    /** Distributed processes: read them, wait for them, cancel them and re-run their failed batches. */
    public dev.errand.process.ProcessAdmin processes() {
        return errand.processes();
    }

    /** Batches: their progress, cancelling them, and the callbacks that fired. */
    public BatchAdmin batches() {
        return errand.batches();
    }

    /** The node this client writes through, for its admin API and settings. */
    public Errand errand() {
        return errand;
    }

    /** The cluster: node registry, leader, commands to nodes, cluster-wide queue pause and settings. */
    public dev.errand.node.ClusterAdmin cluster() {
        return errand.cluster();
    }

    /** Whether this node is running tasks now (false with {@code errand.processing-enabled=false}). */
    public boolean isRunning() {
        return errand.isRunning();
    }

    /**
     * Stops this node gracefully, as the context's shutdown would: it stops claiming, waits up to
     * {@code errand.shutdown-timeout} for running tasks, and leaves the registry. {@link #start()} starts it
     * again in the same JVM.
     *
     * @return true if every running task finished in time
     */
    public boolean stop() {
        return errand.stop();
    }

    /** Starts this node again after {@link #stop()}; no effect while it runs. */
    public void start() {
        errand.start();
    }

    /** Makes every queue of this node claim now instead of at its next poll. */
    public void repoll() {
        errand.repoll();
    }

    /**
     * Makes the target nodes claim now: a command through the database, read at once on PostgreSQL and at
     * the target's next heartbeat elsewhere.
     *
     * @throws IllegalArgumentException if {@code target} is null
     */
    public void repoll(NodeTarget target) {
        errand.cluster().repoll(requireTarget(target));
    }

    /**
     * Stops processing on the target nodes (they stay registered and keep reading commands).
     *
     * @throws IllegalArgumentException if {@code target} is null
     */
    public void stopProcessing(NodeTarget target) {
        errand.cluster().stopProcessing(requireTarget(target));
    }

    /**
     * Starts processing again on the target nodes; a node configured with processing disabled ignores it.
     *
     * @throws IllegalArgumentException if {@code target} is null
     */
    public void startProcessing(NodeTarget target) {
        errand.cluster().startProcessing(requireTarget(target));
    }

    private static NodeTarget requireTarget(NodeTarget target) {
        if (target == null) {
            throw new IllegalArgumentException(
                    "Give a NodeTarget: NodeTarget.node(id), NodeTarget.group(name) or NodeTarget.all()");
        }
        return target;
    }

    private <T> T inCallersTransaction(
            String operation, Insert<T> onConnection, OwnTransaction<T> alone, Function<T, Set<String>> toWake) {
        try {
            if (!TransactionSynchronizationManager.isActualTransactionActive()) {
                if (requireTransaction) {
                    throw new IllegalTransactionStateException("Errand " + operation + " outside a transaction:"
                            + " errand.enqueue.require-transaction is on, so call it from a @Transactional method or"
                            + " a TransactionTemplate, or turn the property off");
                }
                // No transaction to join: Errand opens, commits and closes its own, and wakes the poller.
                return alone.run();
            }
            // The transaction's connection when a transaction manager of this DataSource runs it.
            Connection connection = DataSourceUtils.getConnection(dataSource);
            try {
                T result = onConnection.run(connection);
                wakeAfterCommit(toWake.apply(result));
                return result;
            } finally {
                DataSourceUtils.releaseConnection(connection, dataSource);
            }
        } catch (ErrandException e) {
            throw translate(operation, e.getCause());
        } catch (SQLException e) {
            throw translate(operation, e);
        }
    }

    private DataAccessException translate(String operation, SQLException e) {
        DataAccessException translated = translator.translate("Errand " + operation, null, e);
        return translated != null ? translated : new UncategorizedSQLException("Errand " + operation, null, e);
    }

    private static Set<String> queuesOf(List<TaskRequest> requests) {
        Set<String> queues = new LinkedHashSet<>();
        for (TaskRequest request : requests) {
            queues.add(request.queue() == null ? ErrandSettings.DEFAULT_QUEUE : request.queue());
        }
        return queues;
    }

    private void wakeAfterCommit(Set<String> queues) {
        if (queues.isEmpty() || !TransactionSynchronizationManager.isSynchronizationActive()) {
            return;
        }
        // Before the commit the task is invisible to the poller, so waking it earlier would find nothing.
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                queues.forEach(errand::wakeUp);
            }
        });
    }

    @FunctionalInterface
    private interface Insert<T> {
        T run(Connection connection) throws SQLException;
    }

    @FunctionalInterface
    private interface OwnTransaction<T> {
        T run() throws SQLException;
    }
}
