package dev.errand.jpa;

import dev.errand.jpa.internal.IndexCheck;
import dev.errand.jpa.internal.NodeConfig;
import dev.errand.jpa.internal.QueueEngine;
import dev.errand.jpa.internal.QueueWorker;
import dev.errand.jpa.internal.WakeUpListener;
import dev.errand.jpa.spi.EntityTransactions;
import jakarta.persistence.EntityManagerFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.hibernate.Session;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The entity queues of one node: the application's JPA entities, each embedding a
 * {@link dev.errand.jpa.state.QueueState} per queue, processed item by item in transactions of their own.
 *
 * <pre>{@code
 * EntityQueues queues = EntityQueues.builder(entityManagerFactory)
 *         .register(EntityQueueDefinition.builder(SmsMessage.class, "sendState", (sms, ctx) -> gateway.send(sms))
 *                 .retryPolicy(RetryPolicy.fixed(Duration.ofMinutes(1)))
 *                 .maxAttempts(3)
 *                 .build())
 *         .build();
 * queues.start();
 * // enqueue: save an SmsMessage whose sendState is QueueState.pending(), in any transaction
 * }</pre>
 *
 * <p>Claims take due items with {@code FOR UPDATE SKIP LOCKED} on the entity's table, so any number of nodes
 * share a queue. Each item runs in its own transaction: lock, load, process, mark done. A failure rolls
 * that back and is recorded in a new transaction, with the next attempt due after the retry policy's delay,
 * or the item failed for good after the last attempt. An item whose node died is found when its lease
 * expires and retried or failed. All times are the database's. Thread-safe; {@link #close()} stops
 * gracefully.
 */
public final class EntityQueues implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EntityQueues.class);
    private static final int RESCUES_PER_SWEEP = 100;

    private final Map<String, QueueEngine<?>> engines;
    private final EntityTransactions transactions;
    private final NodeConfig node;
    private final boolean processing;
    private final boolean indexCheck;
    private final WakeUpListener wakeUps;
    private final List<QueueWorker> workers = new ArrayList<>();
    private ScheduledExecutorService rescue;
    private boolean running;
    private boolean stopped;

    /**
     * What a node is assembled from; {@link EntityQueuesBuilder} collects it.
     *
     * @param engines the queues by name
     * @param transactions who runs transactions
     * @param node what the queues share
     * @param processing whether this node processes items, or only serves the helpers
     * @param indexCheck whether start-up checks for the recommended index
     */
    record Assembly(
            Map<String, QueueEngine<?>> engines,
            EntityTransactions transactions,
            NodeConfig node,
            boolean processing,
            boolean indexCheck) {}

    EntityQueues(Assembly assembly, WakeUpListener wakeUps) {
        this.engines = new LinkedHashMap<>(assembly.engines());
        this.transactions = assembly.transactions();
        this.node = assembly.node();
        this.processing = assembly.processing();
        this.indexCheck = assembly.indexCheck();
        this.wakeUps = wakeUps;
    }

    /**
     * Starts configuring the entity queues of a node on a Hibernate {@link EntityManagerFactory}.
     *
     * @throws IllegalArgumentException if the factory is null
     */
    public static EntityQueuesBuilder builder(EntityManagerFactory entityManagerFactory) {
        return new EntityQueuesBuilder(entityManagerFactory);
    }

    /**
     * Checks for each queue's index (logging a warning where it is missing), then starts processing, unless
     * processing is turned off. Calling it again while running has no further effect.
     *
     * @throws IllegalStateException after {@link #stop(Duration)}: build a new node instead
     */
    public synchronized void start() {
        if (stopped) {
            throw new IllegalStateException("These entity queues were stopped and cannot start again; build new"
                    + " ones with EntityQueues.builder(...)");
        }
        if (running) {
            return;
        }
        if (indexCheck) {
            engines.values().forEach(this::checkIndex);
        }
        running = true;
        if (!processing) {
            log.info("Entity queues {} on node {}: processing is off", engines.keySet(), node.nodeId());
            return;
        }
        for (QueueEngine<?> engine : engines.values()) {
            QueueWorker worker = new QueueWorker(engine, "errand-jpa-" + engine.name());
            workers.add(worker);
            worker.start();
        }
        rescue = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "errand-jpa-rescue");
            thread.setDaemon(true);
            return thread;
        });
        long every = node.rescueInterval().toMillis();
        rescue.scheduleWithFixedDelay(this::rescueSweep, every, every, TimeUnit.MILLISECONDS);
        log.info("Entity queues {} started on node {}", engines.keySet(), node.nodeId());
    }

    /**
     * Stops claiming, hands the items claimed but not started back (pending, their claim's attempt
     * uncounted), and waits up to {@code timeout} for the items being processed. Items still running then
     * are interrupted; their transactions roll back and their leases expire into a rescue. A stopped node
     * cannot start again.
     *
     * @return whether every running item finished in time
     * @throws IllegalArgumentException if the timeout is null or negative
     */
    public synchronized boolean stop(Duration timeout) {
        if (timeout == null || timeout.isNegative()) {
            throw new IllegalArgumentException("The shutdown timeout must be zero or more, got " + timeout);
        }
        stopped = true;
        engines.values().forEach(wakeUps::unwatch);
        if (!running) {
            return true;
        }
        running = false;
        boolean finished = true;
        try {
            if (rescue != null) {
                rescue.shutdownNow();
            }
            long deadline = System.nanoTime() + timeout.toNanos();
            for (QueueWorker worker : workers) {
                Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
                finished &= worker.stop(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            finished = false;
        }
        log.info("Entity queues {} stopped on node {}", engines.keySet(), node.nodeId());
        return finished;
    }

    /** Stops with the configured shutdown timeout. */
    @Override
    public void close() {
        stop(node.shutdownTimeout());
    }

    /** Whether this node is started and not stopped. */
    public synchronized boolean isRunning() {
        return running;
    }

    /**
     * A queue by name, typed.
     *
     * @throws IllegalArgumentException if there is no such queue, or its entity type is another
     */
    @SuppressWarnings("unchecked")
    public <E> EntityQueue<E> queue(String name, Class<E> entityType) {
        QueueEngine<?> engine = engines.get(name);
        if (engine == null) {
            throw new IllegalArgumentException(
                    "No entity queue is named '" + name + "'; the queues are " + engines.keySet());
        }
        if (entityType == null || !engine.definition().entityType().equals(entityType)) {
            throw new IllegalArgumentException("Entity queue '" + name + "' holds "
                    + engine.definition().entityType().getName() + ", not "
                    + (entityType == null ? "null" : entityType.getName()));
        }
        return new EntityQueue<>((QueueEngine<E>) engine);
    }

    /** Every queue of this node, in the order they were registered. */
    public List<EntityQueue<?>> queues() {
        List<EntityQueue<?>> all = new ArrayList<>();
        engines.values().forEach(engine -> all.add(new EntityQueue<>(engine)));
        return all;
    }

    /**
     * Rescues, in every queue, the items whose lease expired and that no live transaction holds, now rather
     * than at the next sweep.
     *
     * @return how many items it rescued
     * @throws EntityQueueException if the database cannot be reached
     */
    public int rescueExpiredLeases() {
        int rescued = 0;
        for (QueueEngine<?> engine : engines.values()) {
            try {
                for (int i = 0; i < RESCUES_PER_SWEEP && engine.rescueOne(); i++) {
                    rescued++;
                }
            } catch (Exception e) {
                throw new EntityQueueException("Could not rescue the expired items of queue " + engine.name(), e);
            }
        }
        return rescued;
    }

    /** The node's id, stored as the lease owner of the items it claims. */
    public String nodeId() {
        return node.nodeId();
    }

    private void rescueSweep() {
        try {
            rescueExpiredLeases();
        } catch (Throwable t) {
            log.warn("The rescue sweep failed and runs again in {}: {}", node.rescueInterval(), t.getMessage());
        }
    }

    private void checkIndex(QueueEngine<?> engine) {
        try {
            IndexCheck.Result result = transactions.inTransaction(em -> em.unwrap(Session.class)
                    .doReturningWork(connection ->
                            IndexCheck.check(connection, engine.store().table())));
            String create = IndexCheck.recommendedIndex(engine.store().table());
            if (result == IndexCheck.Result.MISSING) {
                log.warn(
                        "Entity queue {}: table {} has no index on ({}, {}), so every claim reads the whole table."
                                + " Create it: {}",
                        engine.name(),
                        engine.store().table().table(),
                        engine.store().table().columns().status(),
                        engine.store().table().columns().nextAttemptAt(),
                        create);
            } else if (result == IndexCheck.Result.NO_TABLE) {
                log.warn(
                        "Entity queue {}: table {} was not found; create it, with this index: {}",
                        engine.name(),
                        engine.store().table().table(),
                        create);
            }
        } catch (Exception e) {
            log.warn(
                    "Entity queue {}: could not check the index of table {}: {}",
                    engine.name(),
                    engine.store().table().table(),
                    e.getMessage());
        }
    }
}
