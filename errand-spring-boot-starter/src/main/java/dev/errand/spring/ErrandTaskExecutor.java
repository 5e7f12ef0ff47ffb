package dev.errand.spring;

import dev.errand.enqueue.Enqueued;
import dev.errand.enqueue.TaskRequest;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.springframework.core.task.TaskExecutor;
import org.springframework.core.task.TaskRejectedException;
import org.springframework.util.ClassUtils;

/**
 * A {@link TaskExecutor} that persists each runnable as an Errand task instead of running it in memory:
 * the runnable survives a crash or a restart, and runs on whichever node claims it. Only classes declared
 * in a {@link PersistentRunnables} bean are accepted; they are stored as JSON, never with Java
 * serialization.
 *
 * <p>{@link #execute(Runnable)} enqueues a runnable to run now, {@link #schedule(Runnable, Instant)} one
 * to run later. Both enqueue through an {@link ErrandClient}: inside a Spring-managed
 * transaction the task commits or rolls back with it; outside one it commits at once.
 *
 * <p>The auto-configuration registers it as bean {@code errandTaskExecutor}, a fallback candidate: plain
 * {@code TaskExecutor} injection points, {@code @Async} and Spring Boot's {@code applicationTaskExecutor}
 * are left alone. Inject it by its class, {@code ErrandTaskExecutor}.
 */
public final class ErrandTaskExecutor implements TaskExecutor {

    private final ErrandClient client;
    private final Map<Class<?>, String> kinds;
    private final String queue;

    /**
     * Creates the executor.
     *
     * @param client the client that enqueues
     * @param kinds the accepted runnable classes and their kinds
     * @param queue the queue the tasks go to
     */
    public ErrandTaskExecutor(ErrandClient client, Map<Class<? extends Runnable>, String> kinds, String queue) {
        this.client = Objects.requireNonNull(client, "client must not be null");
        this.kinds = Map.copyOf(new LinkedHashMap<Class<?>, String>(kinds));
        this.queue = Objects.requireNonNull(queue, "queue must not be null");
    }

    /**
     * Persists {@code task} as an Errand task of its class's kind.
     *
     * @throws TaskRejectedException if the runnable's class is not declared in a {@link PersistentRunnables}
     *     bean, or it cannot be written as JSON
     * @throws org.springframework.dao.DataAccessException if the insert fails
     */
    @Override
    public void execute(Runnable task) {
        persist(task, null);
    }

    /**
     * Persists {@code task} to run at {@code startTime} or soon after, on whichever node claims it then: the
     * persistent counterpart of {@code TaskScheduler.schedule(Runnable, Instant)}. A time in the past runs it
     * as soon as possible. Inside a Spring-managed transaction it commits or rolls back with it.
     *
     * @return the persisted task's id
     * @throws TaskRejectedException if the runnable's class is not declared in a {@link PersistentRunnables}
     *     bean, it cannot be written as JSON, or {@code startTime} is null or outside the years 1000 to 9999
     * @throws org.springframework.dao.DataAccessException if the insert fails
     */
    public Enqueued schedule(Runnable task, Instant startTime) {
        if (startTime == null) {
            throw new TaskRejectedException("ErrandTaskExecutor.schedule needs a start time; use execute(task) to run"
                    + " it as soon as possible");
        }
        return persist(task, startTime);
    }

    private Enqueued persist(Runnable task, Instant startTime) {
        if (task == null) {
            throw new TaskRejectedException("ErrandTaskExecutor cannot persist a null Runnable");
        }
        Class<?> type = ClassUtils.getUserClass(task);
        String kind = kinds.get(type);
        if (kind == null) {
            throw new TaskRejectedException("ErrandTaskExecutor persists only Runnable classes declared as persistent"
                    + " tasks, and " + type.getName() + " is not one. Declare it with a bean such as"
                    + " '@Bean PersistentRunnables myRunnables() { return PersistentRunnables.of("
                    + type.getSimpleName() + ".class); }', or run it with an in-memory executor such as Spring"
                    + " Boot's applicationTaskExecutor.");
        }
        try {
            TaskRequest.Builder request = TaskRequest.builder(kind, task).queue(queue);
            if (startTime != null) {
                request.runAt(startTime);
            }
            return client.enqueue(request.build());
        } catch (IllegalArgumentException badRequest) {
            throw new TaskRejectedException(
                    "ErrandTaskExecutor could not persist a " + type.getName() + ": " + badRequest.getMessage(),
                    badRequest);
        }
    }

    /** The accepted runnable classes and their kinds. */
    public Map<Class<?>, String> kinds() {
        return kinds;
    }

    /** The queue the tasks go to. */
    public String queue() {
        return queue;
    }
}
