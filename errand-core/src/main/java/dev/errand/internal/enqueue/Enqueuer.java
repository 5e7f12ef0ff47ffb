package dev.errand.internal.enqueue;

import dev.errand.config.ErrandSettings;
import dev.errand.enqueue.Enqueued;
import dev.errand.enqueue.TaskRequest;
import dev.errand.internal.event.EventGate;
import dev.errand.internal.store.Jdbc;
import dev.errand.internal.store.Micros;
import dev.errand.internal.store.NewTask;
import dev.errand.internal.store.Storage;
import dev.errand.internal.store.TaskInserter;
import dev.errand.internal.wakeup.WakeUps;
import dev.errand.spi.TaskListener;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns requests into rows. On a caller's connection the insert joins the caller's transaction: the
 * task exists if and only if that transaction commits. Wake-ups are sent so that they arrive only
 * after commit: a PostgreSQL NOTIFY inside the transaction, and an in-process signal when the
 * connection is in auto-commit or the enqueue used its own connection.
 */
public final class Enqueuer {

    private final Storage storage;
    private final TaskInserter inserter;
    private final Requests requests;
    private final WakeUps wakeUps;
    private final TaskListener listener;
    private final EventGate gate;

    /**
     * Creates the enqueuer.
     *
     * @param storage the task table
     * @param gate the conditions of tasks that wait for events
     * @param requests turns requests into rows
     * @param wakeUps this node's pollers' signals
     * @param listener the application's listeners, as one
     */
    public Enqueuer(Storage storage, EventGate gate, Requests requests, WakeUps wakeUps, TaskListener listener) {
        this.storage = storage;
        this.inserter = storage.inserter();
        this.requests = requests;
        this.wakeUps = wakeUps;
        this.listener = listener;
        this.gate = gate;
    }

    /** The channel name that PostgreSQL wake-ups use for a node's settings. */
    public static String notificationChannel(ErrandSettings settings) {
        return settings.tablePrefix().value() + "task_ready";
    }

    /** Inserts one task on the caller's connection, in the caller's transaction. */
    public Enqueued enqueue(Connection connection, TaskRequest request) throws SQLException {
        requireConnection(connection);
        NewTask task = requests.resolve(request);
        // A task with conditions takes several statements that must commit together, even in auto-commit.
        Enqueued enqueued = task.gate().conditions().isEmpty()
                ? inserter.insert(connection, task, requests.channel())
                : Jdbc.atomically(connection, c -> insertOne(c, task));
        if (connection.getAutoCommit()) {
            wakeUps.wake(task.queue());
        }
        reportEnqueued(List.of(task), enqueued.created());
        return enqueued;
    }

    /** Inserts one task in a transaction of its own. */
    public Enqueued enqueue(TaskRequest request) throws SQLException {
        NewTask task = requests.resolve(request);
        // Without a unique key the insert (and its wake-up) is one statement: run it as its own
        // auto-commit transaction. A unique key may take a look-up and another insert: one transaction.
        Enqueued enqueued = task.uniqueKey() == null && task.gate().conditions().isEmpty()
                ? storage.transactions().runStatement("enqueue", c -> inserter.insert(c, task, requests.channel()))
                : storage.transactions().run("enqueue", c -> insertOne(c, task));
        wakeUps.wake(task.queue());
        reportEnqueued(List.of(task), enqueued.created());
        return enqueued;
    }

    /**
     * Inserts many tasks on the caller's connection. Tasks without a unique key go in one batch
     * statement; tasks with one are inserted one by one so that each can be deduplicated.
     *
     * @return what each request did, in request order
     */
    public List<Enqueued> enqueueAll(Connection connection, List<TaskRequest> batch) throws SQLException {
        requireConnection(connection);
        List<NewTask> tasks = resolveAll(batch);
        boolean gated =
                tasks.stream().anyMatch(task -> !task.gate().conditions().isEmpty());
        List<Enqueued> enqueued =
                gated ? Jdbc.atomically(connection, c -> insertAll(c, tasks)) : insertAll(connection, tasks);
        if (connection.getAutoCommit()) {
            queuesOf(tasks).forEach(wakeUps::wake);
        }
        reportEnqueued(tasks, true);
        return enqueued;
    }

    /** Inserts many tasks in one transaction of their own. */
    public List<Enqueued> enqueueAll(List<TaskRequest> batch) throws SQLException {
        List<NewTask> tasks = resolveAll(batch);
        // Tasks without unique keys go in one statement (wake-ups included): run it as its own
        // auto-commit transaction. Unique keys need more statements in one transaction.
        boolean oneStatement = !tasks.isEmpty() && tasks.stream().allMatch(NewTask::plain);
        List<Enqueued> enqueued = oneStatement
                ? storage.transactions().runStatement("enqueue", connection -> insertAll(connection, tasks))
                : storage.transactions().run("enqueue", connection -> insertAll(connection, tasks));
        queuesOf(tasks).forEach(wakeUps::wake);
        reportEnqueued(tasks, true);
        return enqueued;
    }

    private void reportEnqueued(List<NewTask> tasks, boolean created) {
        if (!created) {
            return;
        }
        Map<List<String>, Integer> counts = new LinkedHashMap<>();
        for (NewTask task : tasks) {
            counts.merge(List.of(task.kind(), task.queue()), 1, Integer::sum);
        }
        counts.forEach((key, count) -> listener.enqueued(key.get(0), key.get(1), count));
    }

    private List<Enqueued> insertAll(Connection connection, List<NewTask> tasks) throws SQLException {
        List<NewTask> plain = new ArrayList<>(tasks.size());
        for (NewTask task : tasks) {
            if (task.plain()) {
                plain.add(task);
            }
        }
        long[] plainIds = plain.isEmpty() ? new long[0] : inserter.insertAll(connection, plain, requests.channel());
        List<Enqueued> enqueued = new ArrayList<>(tasks.size());
        int next = 0;
        for (NewTask task : tasks) {
            enqueued.add(task.plain() ? new Enqueued(plainIds[next++], true) : insertOne(connection, task));
        }
        return enqueued;
    }

    /** Inserts one task, and stores its conditions if it is new and has any. */
    private Enqueued insertOne(Connection connection, NewTask task) throws SQLException {
        Enqueued enqueued = inserter.insert(connection, task, requests.channel());
        if (enqueued.created() && !task.gate().conditions().isEmpty()) {
            gate.admit(connection, enqueued.id(), task.gate());
        }
        return enqueued;
    }

    private List<NewTask> resolveAll(List<TaskRequest> batch) {
        if (batch == null) {
            throw new IllegalArgumentException("requests must not be null; pass an empty list to enqueue nothing");
        }
        List<NewTask> tasks = new ArrayList<>(batch.size());
        for (TaskRequest request : batch) {
            tasks.add(requests.resolve(request));
        }
        return tasks;
    }

    private static Set<String> queuesOf(List<NewTask> tasks) {
        Set<String> queues = new LinkedHashSet<>();
        for (NewTask task : tasks) {
            queues.add(task.queue());
        }
        return queues;
    }

    private static void requireConnection(Connection connection) {
        if (connection == null) {
            throw new IllegalArgumentException("connection must not be null: pass the connection of the"
                    + " transaction the task belongs to, or use the overload without one");
        }
    }

    /** Micros of a request's delay, saturated; for {@link Requests}. */
    static long delayMicros(long offsetMicros, TaskRequest request) {
        return Micros.plus(offsetMicros, Micros.of(request.delay()));
    }
}
