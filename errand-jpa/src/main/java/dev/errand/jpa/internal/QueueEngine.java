package dev.errand.jpa.internal;

import dev.errand.jpa.queue.EntityQueueDefinition;
import dev.errand.jpa.queue.QueueStats;
import dev.errand.jpa.spi.EntityTransactions;
import dev.errand.jpa.state.QueueStatus;
import dev.errand.task.FailureCause;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One entity queue on one node: claims due items, processes each in its own transaction, records failures,
 * rescues items of lost nodes, and serves the queue's helpers. The {@link QueueWorker} drives it.
 *
 * @param <E> the entity type
 */
public final class QueueEngine<E> {

    private static final Logger log = LoggerFactory.getLogger(QueueEngine.class);
    private static final SecureRandom TOKENS = new SecureRandom();

    private final EntityQueueDefinition<E> definition;
    private final QueueStore store;
    private final EntityTransactions transactions;
    private final NodeConfig node;
    private final Settler<E> settler;
    private final Signal signal = new Signal();
    private final LongAdder done = new LongAdder();
    private final LongAdder skipped = new LongAdder();
    private final LongAdder retried = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder rescued = new LongAdder();

    /** Creates the engine of one queue. */
    public QueueEngine(
            EntityQueueDefinition<E> definition, QueueStore store, EntityTransactions transactions, NodeConfig node) {
        this.definition = definition;
        this.store = store;
        this.transactions = transactions;
        this.node = node;
        this.settler = new Settler<>(definition, store, transactions, node);
    }

    /** The queue's definition. */
    public EntityQueueDefinition<E> definition() {
        return definition;
    }

    /** The queue's store. */
    public QueueStore store() {
        return store;
    }

    /** The claim of one poll: what it took, and whether more may be due at once. */
    record Claim(List<ClaimedItem> items, boolean more) {}

    /** Claims up to {@code limit} due items in one transaction. */
    Claim claim(int limit) throws Exception {
        long token = TOKENS.nextLong();
        return transactions.inTransaction(em -> {
            List<ClaimedItem> items =
                    store.claim(em, limit, node.nodeId(), token, node.offsetMicros(), node.leaseMicros());
            return new Claim(items, items.size() == limit);
        });
    }

    /**
     * Processes one claimed item in its own transaction: locks and loads its entity (if the attempt still
     * holds it), runs the processor, marks it done. A failure is recorded afterwards in a new transaction.
     */
    void process(ClaimedItem item) {
        Throwable failure;
        try {
            boolean processed = transactions.inTransaction(em -> {
                var locked = store.lockAndLoad(em, definition.entityType(), item.id(), item.token());
                if (locked.isEmpty()) {
                    log.debug("Item {} of queue {} was deleted or taken from this attempt; skipped", item.id(), name());
                    return false;
                }
                E entity = locked.get();
                definition
                        .processor()
                        .process(entity, new Attempt(name(), item.id(), item.attempt(), definition.maxAttempts(), em));
                em.flush();
                store.complete(em, item.id(), item.token());
                return true;
            });
            (processed ? done : skipped).increment();
            return;
        } catch (Throwable t) {
            failure = t;
        }
        String error = ErrorText.of(failure);
        FailureCause cause = new FailureCause.HandlerFailed(failure.getClass().getName(), messageOf(failure), failure);
        try {
            Settler.Outcome outcome = settler.recordFailure(item, cause, error);
            count(outcome);
            if (outcome == Settler.Outcome.FAILED) {
                log.error(
                        "Item {} of queue {} failed for good after attempt {}: {}",
                        item.id(),
                        name(),
                        item.attempt(),
                        error,
                        failure);
            } else if (outcome == Settler.Outcome.RETRIED) {
                log.info(
                        "Attempt {} of item {} in queue {} failed; retry scheduled: {}",
                        item.attempt(),
                        item.id(),
                        name(),
                        error);
            }
        } catch (Throwable recordFailure) {
            // The lease stays; when it expires, rescue retries or fails the item on any node.
            log.warn(
                    "Could not record the failure of item {} in queue {} ({}); it is rescued after its lease expires",
                    item.id(),
                    name(),
                    ErrorText.of(recordFailure));
        }
    }

    /**
     * Rescues one item whose lease expired and that no live transaction holds: retried or failed as the queue
     * says, with the error "worker lost".
     *
     * @return whether it found one
     */
    public boolean rescueOne() throws Exception {
        ClaimedItem[] found = new ClaimedItem[1];
        Settler.Outcome outcome;
        try {
            outcome = transactions.inTransaction(em -> {
                var expired = store.lockExpired(em, node.offsetMicros());
                if (expired.isEmpty()) {
                    return null;
                }
                ClaimedItem item = expired.get();
                found[0] = item;
                FailureCause lost = new FailureCause.WorkerLost(item.owner());
                return settler.settleLocked(em, item, item.attempt(), lost, lost.describe());
            });
        } catch (Settler.CallbackFailed callbackFailed) {
            outcome = settler.failWithoutCallback(found[0], callbackFailed);
        }
        if (outcome == null) {
            return false;
        }
        rescued.increment();
        count(outcome);
        log.warn(
                "Rescued item {} of queue {} from lost node {} (attempt {}): {}",
                found[0].id(),
                name(),
                found[0].owner(),
                found[0].attempt(),
                outcome == Settler.Outcome.RETRIED ? "retried" : "failed for good");
        return true;
    }

    /**
     * Hands claimed items that never started back, in one transaction.
     *
     * @return how many it handed back
     */
    int release(List<ClaimedItem> items) throws Exception {
        Map<Long, List<Object>> byToken = new LinkedHashMap<>();
        for (ClaimedItem item : items) {
            byToken.computeIfAbsent(item.token(), token -> new ArrayList<>()).add(item.id());
        }
        return transactions.inTransaction(em -> {
            int released = 0;
            for (Map.Entry<Long, List<Object>> claim : byToken.entrySet()) {
                released += store.release(em, claim.getKey(), claim.getValue());
            }
            return released;
        });
    }

    /** Puts every failed item back to pending, due now; returns how many. */
    public int resetFailed() throws Exception {
        int reset = transactions.inTransaction(em -> store.resetFailed(em, node.offsetMicros()));
        if (reset > 0) {
            wakeUp();
        }
        return reset;
    }

    /** Counts the items of each status. */
    public Map<QueueStatus, Long> countByStatus() throws Exception {
        return transactions.inTransaction(store::countByStatus);
    }

    /** Wakes this node's poller of the queue. */
    public void wakeUp() {
        signal.wake();
    }

    /** The poller's signal. */
    Signal signal() {
        return signal;
    }

    /** This node's counters. */
    public QueueStats stats() {
        return new QueueStats(done.sum(), skipped.sum(), retried.sum(), failed.sum(), rescued.sum());
    }

    /** The queue's name. */
    public String name() {
        return definition.name();
    }

    private void count(Settler.Outcome outcome) {
        if (outcome == Settler.Outcome.RETRIED) {
            retried.increment();
        } else if (outcome == Settler.Outcome.FAILED) {
            failed.increment();
        }
    }

    private static String messageOf(Throwable failure) {
        try {
            return failure.getMessage();
        } catch (RuntimeException | StackOverflowError broken) {
            return null;
        }
    }
}
