package dev.errand.spring.actuate;

import dev.errand.Errand;
import dev.errand.admin.TaskCounts;
import dev.errand.history.Attempt;
import dev.errand.node.QueueActivity;
import dev.errand.schedule.ScheduleInfo;
import dev.errand.spring.ErrandTasks;
import dev.errand.spring.TaskStatistics;
import dev.errand.task.Task;
import dev.errand.task.TaskDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * The {@code errand} actuator endpoint ({@code /actuator/errand} once exposed): this node, its queues, task
 * counts by state and by kind, and the nodes that hold running tasks. The counts come from one scan of the
 * task table and may be up to {@code errand.stats.cache-duration} old.
 */
@Endpoint(id = "errand")
public class ErrandEndpoint {

    /** How many of the newest processes the endpoint shows. */
    static final int RECENT_PROCESSES = 20;

    /** How many failed batches the endpoint shows for one process. */
    static final int SHOWN_FAILED_BATCHES = 1_000;

    /** The path segment before a process id. */
    static final String PROCESSES = "processes";

    private final Errand errand;
    private final ErrandTasks tasks;
    private final TaskStatistics statistics;

    /** Creates the endpoint. */
    public ErrandEndpoint(Errand errand, ErrandTasks tasks, TaskStatistics statistics) {
        this.errand = Objects.requireNonNull(errand, "errand must not be null");
        this.tasks = Objects.requireNonNull(tasks, "tasks must not be null");
        this.statistics = Objects.requireNonNull(statistics, "statistics must not be null");
    }

    /**
     * One task and its attempt history: {@code GET /actuator/errand/{id}}. The task is {@code null} when its
     * row is gone (a succeeded task is deleted unless retention is on); its attempts stay for the history's
     * retention.
     */
    @ReadOperation
    public TaskHistory task(@Selector long id) {
        return new TaskHistory(
                id, errand.admin().find(id).orElse(null), errand.history().attempts(id));
    }

    /**
     * A task and its attempts.
     *
     * @param id the task's id
     * @param task the task's row, or {@code null} when it is gone
     * @param attempts its ended attempts, first to last
     */
    public record TaskHistory(long id, Task task, List<Attempt> attempts) {}

    /**
     * One distributed process: {@code GET /actuator/errand/processes/{id}} gives its state, turn, error, the
     * counts of each turn and its failed batches with their errors (newest turn first, at most
     * {@value #SHOWN_FAILED_BATCHES}). Any other first segment than {@code processes}, or an unknown process
     * id, answers 404.
     */
    @ReadOperation
    public ProcessDetail process(@Selector String section, @Selector String id) {
        if (!PROCESSES.equals(section) || id.isBlank()) {
            return null;
        }
        return errand.processes()
                .find(id)
                .map(process -> new ProcessDetail(process, errand.processes().failedBatches(id, SHOWN_FAILED_BATCHES)))
                .orElse(null);
    }

    /**
     * A process and its failed batches.
     *
     * @param process the process: state, turn, node group, error and every turn with its counts
     * @param failedBatches its failed batches with their errors, newest turn first
     */
    public record ProcessDetail(
            dev.errand.process.ProcessInfo process, List<dev.errand.process.FailedBatch> failedBatches) {}

    /** Describes this node and the task table. */
    @ReadOperation
    public ErrandDescriptor errand() {
        // One statement gives every count, so that due never exceeds pending.
        TaskCounts overview = statistics.overview();
        Map<String, QueueActivity> activity = errand.activity();

        Map<String, QueueDescriptor> queues = new TreeMap<>();
        errand.settings().queues().forEach((name, concurrency) -> queues.put(name, new QueueDescriptor(concurrency)));
        activity.forEach((name, now) -> {
            QueueDescriptor queue = queues.computeIfAbsent(name, n -> new QueueDescriptor(now.concurrency()));
            queue.executing = now.executing();
            queue.buffered = now.buffered();
        });
        Map<String, KindDescriptor> kinds = new TreeMap<>();
        for (TaskDefinition<?> definition : tasks.definitions()) {
            kinds.put(
                    definition.kind(),
                    new KindDescriptor(true, definition.mode().name(), definition.maxAttempts()));
        }
        for (TaskCounts.Count count : overview.counts()) {
            String state = count.state().dbValue();
            QueueDescriptor queue = queues.computeIfAbsent(count.queue(), name -> new QueueDescriptor(null));
            queue.states().merge(state, count.count(), Long::sum);
            queue.due += count.due();
            queue.lagSeconds = Math.max(queue.lagSeconds, count.oldestDueLag().toMillis() / 1000.0);
            kinds.computeIfAbsent(count.kind(), name -> new KindDescriptor(false, null, null))
                    .states()
                    .merge(state, count.count(), Long::sum);
        }
        Map<String, Long> states = new TreeMap<>();
        overview.byState().forEach((state, count) -> states.put(state.dbValue(), count));

        List<String> nodes = new ArrayList<>(overview.leaseOwners());
        if (!nodes.contains(errand.settings().nodeId())) {
            nodes.add(errand.settings().nodeId());
        }
        return new ErrandDescriptor(
                new NodeDescriptor(
                        errand.settings().nodeId(),
                        errand.isRunning(),
                        errand.settings().processingEnabled(),
                        errand.dialectName()),
                queues,
                states,
                kinds,
                nodes,
                errand.schedules().list(),
                overview.databaseTime().toString(),
                errand.cluster().nodes(),
                errand.processes().list(null, RECENT_PROCESSES));
    }

    /**
     * What the endpoint returns.
     *
     * @param node this node
     * @param queues this node's queues and every queue that holds tasks
     * @param states tasks per state, over all kinds
     * @param kinds the registered kinds and every kind that holds tasks
     * @param nodes the nodes holding running tasks, plus this node
     * @param schedules the recurring schedules, with their next and last slots
     * @param databaseTime the database's time when the counts were read
     * @param cluster every node in the node registry, with its state
     * @param processes the newest distributed processes, with their state, turns, counts per turn and error
     */
    public record ErrandDescriptor(
            NodeDescriptor node,
            Map<String, QueueDescriptor> queues,
            Map<String, Long> states,
            Map<String, KindDescriptor> kinds,
            List<String> nodes,
            List<ScheduleInfo> schedules,
            String databaseTime,
            List<dev.errand.node.NodeInfo> cluster,
            List<dev.errand.process.ProcessInfo> processes) {}

    /**
     * This node.
     *
     * @param id its node id
     * @param running whether its engine runs
     * @param processingEnabled whether it runs tasks at all
     * @param dialect the database dialect
     */
    public record NodeDescriptor(String id, boolean running, boolean processingEnabled, String dialect) {}

    /**
     * One queue: its concurrency on this node, what this node does with it now, due tasks, lag and tasks
     * per state. The state {@code running} counts every claimed task on every node, both executing and
     * buffered ones.
     */
    public static final class QueueDescriptor {
        private final Integer concurrency;
        private final Map<String, Long> states = new TreeMap<>();
        private long due;
        private double lagSeconds;
        private int executing;
        private int buffered;

        QueueDescriptor(Integer concurrency) {
            this.concurrency = concurrency;
        }

        /** Worker threads on this node, or {@code null} if this node does not declare the queue. */
        public Integer getConcurrency() {
            return concurrency;
        }

        /** Tasks whose handler runs on this node now. */
        public int getExecuting() {
            return executing;
        }

        /** Tasks this node has claimed that wait for a free worker (the prefetch buffer). */
        public int getBuffered() {
            return buffered;
        }

        /** Pending tasks whose run time has passed. */
        public long getDue() {
            return due;
        }

        /** Seconds the oldest due task has waited. */
        public double getLagSeconds() {
            return lagSeconds;
        }

        /** Tasks per state. */
        public Map<String, Long> getStates() {
            return states;
        }

        Map<String, Long> states() {
            return states;
        }
    }

    /** One kind: whether this node registered it, its mode and maximum attempts, and tasks per state. */
    public static final class KindDescriptor {
        private final boolean registered;
        private final String mode;
        private final Integer maxAttempts;
        private final Map<String, Long> states = new TreeMap<>();

        KindDescriptor(boolean registered, String mode, Integer maxAttempts) {
            this.registered = registered;
            this.mode = mode;
            this.maxAttempts = maxAttempts;
        }

        /** Whether this node has a handler for the kind. */
        public boolean isRegistered() {
            return registered;
        }

        /** The execution mode, or {@code null} if not registered here. */
        public String getMode() {
            return mode;
        }

        /** The kind's maximum attempts, or {@code null} for the engine default or if not registered here. */
        public Integer getMaxAttempts() {
            return maxAttempts;
        }

        /** Tasks per state. */
        public Map<String, Long> getStates() {
            return states;
        }

        Map<String, Long> states() {
            return states;
        }
    }
}
