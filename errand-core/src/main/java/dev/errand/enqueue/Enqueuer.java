package dev.errand.enqueue;

import dev.errand.ErrandSettings;
import dev.errand.json.PayloadCodec;
import dev.errand.store.Dialect;
import dev.errand.store.Transactions;
import dev.errand.store.NewTask;
import dev.errand.store.TaskInserter;
import dev.errand.store.TaskStore;
import dev.errand.task.TaskDefinition;
import dev.errand.wakeup.WakeUps;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
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

    private final Transactions transactions;
    private final Dialect dialect;
    private final TaskInserter inserter;
    private final PayloadCodec codec;
    private final ErrandSettings settings;
    private final Map<String, TaskDefinition<?>> definitions;
    private final WakeUps wakeUps;
    private final String channel;

    /** Creates the enqueuer; {@link dev.errand.Errand} wires it. */
    public Enqueuer(Transactions transactions, Dialect dialect, PayloadCodec codec, ErrandSettings settings,
            Map<String, TaskDefinition<?>> definitions, WakeUps wakeUps) {
        this.transactions = transactions;
        this.dialect = dialect;
        this.codec = codec;
        this.settings = settings;
        this.definitions = definitions;
        this.wakeUps = wakeUps;
        this.inserter = TaskInserter.forDialect(dialect, settings.tablePrefix().taskTable(), transactions.dataSource());
        this.channel = notificationChannel(settings);
    }

    /** The channel name that PostgreSQL wake-ups use for these settings. */
    public static String notificationChannel(ErrandSettings settings) {
        return settings.tablePrefix().value() + "task_ready";
    }

    /** Inserts one task on the caller's connection, in the caller's transaction. */
    public long enqueue(Connection connection, TaskRequest request) throws SQLException {
        requireConnection(connection);
        NewTask task = resolve(request);
        long id = inserter.insertAndNotify(connection, task, dialect, channel);
        if (connection.getAutoCommit()) {
            wakeUps.wake(task.queue());
        }
        settings.listener().enqueued(task.kind(), task.queue(), 1);
        return id;
    }

    /** Inserts one task in a transaction of its own. */
    public long enqueue(TaskRequest request) throws SQLException {
        NewTask task = resolve(request);
        // Without a unique key the insert (and its wake-up) is one statement: run it as its own
        // auto-commit transaction. A unique key may take a look-up and another insert: one transaction.
        long id = task.uniqueKey() == null
                ? transactions.runStatement("enqueue", c -> inserter.insertAndNotify(c, task, dialect, channel))
                : transactions.run("enqueue", c -> inserter.insertAndNotify(c, task, dialect, channel));
        wakeUps.wake(task.queue());
        settings.listener().enqueued(task.kind(), task.queue(), 1);
        return id;
    }

    /**
     * Inserts many tasks on the caller's connection. Tasks without a unique key go in one batch
     * statement; tasks with one are inserted one by one so that each can be deduplicated.
     *
     * @return the ids in request order
     */
    public List<Long> enqueueAll(Connection connection, List<TaskRequest> requests) throws SQLException {
        requireConnection(connection);
        List<NewTask> tasks = resolveAll(requests);
        List<Long> ids = insertAll(connection, tasks);
        if (connection.getAutoCommit()) {
            queuesOf(tasks).forEach(wakeUps::wake);
        }
        reportEnqueued(tasks);
        return ids;
    }

    /** Inserts many tasks in one transaction of their own. */
    public List<Long> enqueueAll(List<TaskRequest> requests) throws SQLException {
        List<NewTask> tasks = resolveAll(requests);
        Set<String> queues = queuesOf(tasks);
        // Tasks without unique keys go in one statement (wake-ups included): run it as its own
        // auto-commit transaction. Unique keys need more statements in one transaction.
        boolean oneStatement = tasks.stream().allMatch(task -> task.uniqueKey() == null);
        List<Long> ids = oneStatement && !tasks.isEmpty()
                ? transactions.runStatement("enqueue", connection -> insertAll(connection, tasks))
                : transactions.run("enqueue", connection -> insertAll(connection, tasks));
        queues.forEach(wakeUps::wake);
        reportEnqueued(tasks);
        return ids;
    }

    private void reportEnqueued(List<NewTask> tasks) {
        java.util.Map<java.util.List<String>, Integer> counts = new java.util.LinkedHashMap<>();
        for (NewTask task : tasks) {
            counts.merge(java.util.List.of(task.kind(), task.queue()), 1, Integer::sum);
        }
        counts.forEach((key, count) -> settings.listener().enqueued(key.get(0), key.get(1), count));
    }

    private List<Long> insertAll(Connection connection, List<NewTask> tasks) throws SQLException {
        List<NewTask> plain = new ArrayList<>(tasks.size());
        for (NewTask task : tasks) {
            if (task.uniqueKey() == null) {
                plain.add(task);
            }
        }
        long[] plainIds = plain.isEmpty() ? new long[0]
                : inserter.insertAllAndNotify(connection, plain, dialect, channel);
        List<Long> ids = new ArrayList<>(tasks.size());
        int next = 0;
        for (NewTask task : tasks) {
            ids.add(task.uniqueKey() == null ? plainIds[next++]
                    : inserter.insertAndNotify(connection, task, dialect, channel));
        }
        return ids;
    }

    private List<NewTask> resolveAll(List<TaskRequest> requests) {
        if (requests == null) {
            throw new IllegalArgumentException("requests must not be null; pass an empty list to enqueue nothing");
        }
        List<NewTask> tasks = new ArrayList<>(requests.size());
        for (TaskRequest request : requests) {
            tasks.add(resolve(request));
        }
        return tasks;
    }

    private NewTask resolve(TaskRequest request) {
        if (request == null) {
            throw new IllegalArgumentException("request must not be null: build one with TaskRequest.of(kind, payload)");
        }
        String queue = request.queue() == null ? dev.errand.ErrandBuilder.DEFAULT_QUEUE : request.queue();
        if (!settings.queues().containsKey(queue)) {
            throw new IllegalArgumentException("Queue '" + queue + "' is not configured; declare it with"
                    + " Errand.builder(dataSource).queue(\"" + queue + "\", concurrency). Configured queues: "
                    + settings.queues().keySet());
        }
        TaskDefinition<?> definition = definitions.get(request.kind());
        int maxAttempts = request.maxAttempts() != null ? request.maxAttempts()
                : definition != null && definition.maxAttempts() != null ? definition.maxAttempts()
                : settings.defaultMaxAttempts();
        long offset = TaskStore.micros(settings.clock().offset());
        return new NewTask(request.kind(), queue, codec.encode(request.payload()), request.priority(),
                request.runAt(), offset + TaskStore.micros(request.delay()), maxAttempts, request.uniqueKey());
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
}
