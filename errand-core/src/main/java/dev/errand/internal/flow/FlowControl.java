package dev.errand.internal.flow;

import dev.errand.config.ClaimOrder;
import dev.errand.flow.RateLimit;
import dev.errand.internal.claim.FilteredClaim;
import dev.errand.internal.store.Storage;
import dev.errand.spi.ClaimRequest;
import dev.errand.spi.ClaimedTask;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's flow control: it writes the limits its kinds declare, keeps the limits in force in the cluster
 * (read again at each {@link #refresh()}), and claims under them.
 *
 * <p>While no kind is limited, {@link #active()} is false and the engine claims with its own strategy, at no
 * cost. Once one is, every claim of the node is one transaction ({@link #claim}): for each limited kind it
 * locks the kind's free slots with {@code FOR UPDATE SKIP LOCKED}, claims as many due tasks of that kind as it
 * locked free slots and writes each task's id and lease token on its slot; then it claims the tasks of the
 * other kinds. A slot is free when the task it names is no longer running with that lease token, so the
 * transaction that ends a task, or rescues its lease, frees its slot without writing to it.
 */
public final class FlowControl {

    private static final Logger log = LoggerFactory.getLogger(FlowControl.class);

    private final Storage storage;
    private final FlowStore store;
    private final FilteredClaim claims;
    /** The kinds this node registers, each with the limits it declares. */
    private final Map<String, Declared> declared;
    /** Per kind and queue, the key after which the next per-key claim starts, so that every key gets its turn. */
    private final Map<List<String>, String> keyCursors = new ConcurrentHashMap<>();
    /** The keys whose slots this node has created, per kind (bounded: forgotten wholesale past a size). */
    private final Map<String, Integer> ensuredKeys = new ConcurrentHashMap<>();
    /** The slots created so far, per kind, so that a refresh creates only missing ones. */
    private final Map<String, Integer> ensured = new ConcurrentHashMap<>();
    /** The queue slots created so far, per queue. */
    private final Map<String, Integer> ensuredQueues = new ConcurrentHashMap<>();
    /** The queues this node serves, each with the cluster-wide limits it declares. */
    private final Map<String, QueueLimits> declaredQueues;
    /** The queue rate slots created so far, per queue. */
    private final Map<String, Integer> ensuredQueueRates = new ConcurrentHashMap<>();
    /** The rate slots created so far, per kind. */
    private final Map<String, Integer> ensuredRates = new ConcurrentHashMap<>();

    /** The most tasks one slot's chain holds; a chain's ids must fit {@code chain_ids}. */
    static final int MAX_CHAIN = 64;

    /** The chains each claim in flight has made so far, by its lease token. */
    private final Map<Long, List<List<ClaimedTask>>> pendingChains = new ConcurrentHashMap<>();

    /** Claimed tasks that are not the last of their chain: their end frees no slot. */
    private final java.util.Set<Long> chainedAhead = ConcurrentHashMap.newKeySet();

    /** How many workers this node has per queue: a claim starts no more chains than that. */
    private volatile Map<String, Integer> workers = Map.of();

    /** The limits in force; until the first read, the node's own declarations. */
    private volatile Limits limits;

    private volatile boolean declarationsWritten;

    /**
     * Per queue, until when (System.nanoTime) claims skip the tasks of unlimited kinds, because the last claim
     * of them found fewer than it had room for. Their claim reads the queue's claim index and leaves limited
     * kinds out with a filter, so it walks past every due held-back task that sorts before them: once per
     * quiet period instead of on every claim that a freed slot triggers.
     */
    private final Map<String, Long> unlimitedQuietUntil = new ConcurrentHashMap<>();

    private volatile long quietNanos = java.time.Duration.ofMillis(500).toNanos();

    /**
     * Creates the flow control of a node.
     *
     * @param storage the task table and its transactions
     * @param tablePrefix the table prefix
     * @param declared every kind the node registers, with the limits its definition declares
     * @param queues every queue the node serves, with the cluster-wide limits it declares
     * @param order the order the node claims in
     */
    public FlowControl(
            Storage storage,
            String tablePrefix,
            Map<String, Declared> declared,
            Map<String, QueueLimits> queues,
            ClaimOrder order) {
        this.storage = storage;
        this.store = new FlowStore(storage.dialect(), tablePrefix);
        this.claims = new FilteredClaim(storage.dialect(), tablePrefix + "task", order);
        this.declared = Collections.unmodifiableMap(new HashMap<>(declared));
        this.declaredQueues = Collections.unmodifiableMap(new HashMap<>(queues));
        Map<String, QueueLimits> perQueue = new LinkedHashMap<>();
        queues.forEach((queue, limit) -> {
            if (!limit.isEmpty()) {
                perQueue.put(queue, limit);
            }
        });
        Map<String, Integer> perKind = new LinkedHashMap<>();
        Map<String, Integer> perKey = new LinkedHashMap<>();
        Map<String, RateLimit> rates = new LinkedHashMap<>();
        Map<String, RateLimit> keyRates = new LinkedHashMap<>();
        declared.forEach((kind, limits) -> {
            if (limits.concurrency() != null) {
                perKind.put(kind, limits.concurrency());
            } else if (limits.perKey() != null) {
                perKey.put(kind, limits.perKey());
            } else if (limits.rate() != null) {
                rates.put(kind, limits.rate());
            } else if (limits.ratePerKey() != null) {
                keyRates.put(kind, limits.ratePerKey());
            }
        });
        this.limits = new Limits(
                Map.copyOf(perKind), Map.copyOf(perKey), Map.copyOf(rates), Map.copyOf(keyRates), Map.copyOf(perQueue));
    }

    /**
     * The limits a kind's definition declares.
     *
     * @param concurrency the most tasks of the kind running at once, or null
     * @param perKey the most tasks of the kind with one limit key running at once, or null
     * @param rate the most starts of the kind per period, or null
     * @param ratePerKey the most starts of the kind with one limit key per period, or null
     */
    public record Declared(Integer concurrency, Integer perKey, RateLimit rate, RateLimit ratePerKey) {}

    /**
     * A queue's cluster-wide limits, declared by a node or in force.
     *
     * @param concurrency the most of its tasks running at once, or null
     * @param rate the most of its tasks starting per period, or null
     */
    public record QueueLimits(Integer concurrency, RateLimit rate) {
        /** No limit. */
        public static final QueueLimits NONE = new QueueLimits(null, null);

        /** Whether neither limit is set. */
        public boolean isEmpty() {
            return concurrency == null && rate == null;
        }
    }

    /**
     * The limits in force.
     *
     * @param perKind the concurrency limit of each limited kind
     * @param perKey the per-key limit of each kind that has one (and no concurrency limit)
     * @param rates the rate limit of each kind that has one (and no concurrency or per-key limit)
     * @param keyRates the per-key rate limit of each kind that has one (and no other limit)
     * @param perQueue the cluster-wide limits of each limited queue
     */
    public record Limits(
            Map<String, Integer> perKind,
            Map<String, Integer> perKey,
            Map<String, RateLimit> rates,
            Map<String, RateLimit> keyRates,
            Map<String, QueueLimits> perQueue) {
        /** Whether no kind and no queue is limited. */
        public boolean isEmpty() {
            return perKind.isEmpty() && perKey.isEmpty() && rates.isEmpty() && keyRates.isEmpty() && perQueue.isEmpty();
        }

        /** The kinds whose tasks are limited by their key: a per-key limit or a per-key rate limit. */
        List<String> keyedKinds() {
            List<String> kinds = new ArrayList<>(perKey.keySet());
            kinds.addAll(keyRates.keySet());
            return kinds;
        }
    }

    /**
     * Writes this node's declarations and reads the limits in force, before the engine's first claim. A
     * failure is logged: until a later {@link #refresh()} succeeds, the node claims under its own declarations.
     */
    public void start() {
        try {
            refresh();
        } catch (SQLException e) {
            log.warn(
                    "Could not read the flow limits ({}); claiming under this node's declared limits {} until the"
                            + " next refresh",
                    e.getMessage(),
                    limits);
        }
    }

    /** Reads the limits in force again (and writes this node's declarations, once). */
    public void refresh() throws SQLException {
        if (!declarationsWritten) {
            storage.transactions().run("flow declarations", connection -> {
                for (Map.Entry<String, Declared> kind : declared.entrySet()) {
                    store.set(
                            connection,
                            kind.getKey(),
                            FlowStore.Source.DECLARED,
                            kind.getValue().concurrency());
                    store.set(
                            connection,
                            kind.getKey(),
                            FlowStore.Source.DECLARED_PER_KEY,
                            kind.getValue().perKey());
                    RateLimit rate = kind.getValue().rate();
                    store.setRate(
                            connection,
                            kind.getKey(),
                            rate == null ? null : rate.starts(),
                            rate == null ? 0 : rate.period().toMillis());
                    RateLimit perKey = kind.getValue().ratePerKey();
                    store.setRate(
                            connection,
                            kind.getKey(),
                            FlowStore.RateColumns.DECLARED_PER_KEY,
                            perKey == null ? null : perKey.starts(),
                            perKey == null ? 0 : perKey.period().toMillis());
                }
                for (Map.Entry<String, QueueLimits> queue : declaredQueues.entrySet()) {
                    store.setQueue(
                            connection, queue.getKey(), false, queue.getValue().concurrency());
                    RateLimit rate = queue.getValue().rate();
                    store.setQueueRate(
                            connection,
                            queue.getKey(),
                            false,
                            rate == null ? null : rate.starts(),
                            rate == null ? 0 : rate.period().toMillis());
                }
                return null;
            });
            declarationsWritten = true;
        }
        Map<String, FlowStore.LimitRow> rows = storage.transactions().runStatement("flow limits", store::limits);
        Map<String, Integer> read = new LinkedHashMap<>();
        Map<String, Integer> readPerKey = new LinkedHashMap<>();
        for (FlowStore.LimitRow row : rows.values()) {
            if (row.effective() == null) {
                readPerKey.put(row.kind(), row.effectivePerKey());
                continue;
            }
            if (row.effectivePerKey() != null) {
                log.warn(
                        "Kind '{}' has both a concurrency limit ({}) and a per-key limit ({}) in force; only the"
                                + " concurrency limit applies. Remove one of them",
                        row.kind(),
                        row.effective(),
                        row.effectivePerKey());
            }
            int limit = row.effective();
            if (ensured.getOrDefault(row.kind(), 0) < limit) {
                storage.transactions().runStatement("flow slots", connection -> {
                    store.ensureSlots(connection, row.kind(), limit);
                    return null;
                });
                ensured.put(row.kind(), limit);
            }
            read.put(row.kind(), limit);
        }
        Map<String, RateLimit> readRates = new LinkedHashMap<>();
        for (Map.Entry<String, RateLimit> rate :
                storage.transactions().runStatement("flow rates", store::rates).entrySet()) {
            String kind = rate.getKey();
            if (read.containsKey(kind) || readPerKey.containsKey(kind)) {
                log.warn("Kind '{}' has a rate limit beside another flow limit; only the other applies", kind);
                continue;
            }
            int starts = rate.getValue().starts();
            if (ensuredRates.getOrDefault(kind, 0) < starts) {
                storage.transactions().runStatement("flow rate slots", connection -> {
                    store.ensureRateSlots(connection, kind, starts);
                    return null;
                });
                ensuredRates.put(kind, starts);
            }
            readRates.put(kind, rate.getValue());
        }
        Map<String, RateLimit> readKeyRates = new LinkedHashMap<>();
        for (Map.Entry<String, RateLimit> rate : storage.transactions()
                .runStatement("flow key rates", store::keyRates)
                .entrySet()) {
            String kind = rate.getKey();
            if (read.containsKey(kind) || readPerKey.containsKey(kind) || readRates.containsKey(kind)) {
                log.warn("Kind '{}' has a per-key rate limit beside another flow limit; only the other applies", kind);
                continue;
            }
            readKeyRates.put(kind, rate.getValue());
        }
        Map<String, QueueLimits> readQueues = new LinkedHashMap<>();
        Map<String, RateLimit[]> queueRates =
                storage.transactions().runStatement("flow queue rates", store::queueRateRows);
        for (Map.Entry<String, Integer[]> queue : storage.transactions()
                .runStatement("flow queue limits", store::queueLimits)
                .entrySet()) {
            Integer limit = queue.getValue()[1] != null ? queue.getValue()[1] : queue.getValue()[0];
            RateLimit[] rateRow = queueRates.get(queue.getKey());
            RateLimit rate = rateRow == null ? null : rateRow[1] != null ? rateRow[1] : rateRow[0];
            if (limit != null && ensuredQueues.getOrDefault(queue.getKey(), 0) < limit) {
                storage.transactions().runStatement("flow queue slots", connection -> {
                    store.ensureQueueSlots(connection, queue.getKey(), limit);
                    return null;
                });
                ensuredQueues.put(queue.getKey(), limit);
            }
            if (rate != null && ensuredQueueRates.getOrDefault(queue.getKey(), 0) < rate.starts()) {
                storage.transactions().runStatement("flow queue rate slots", connection -> {
                    store.ensureQueueRateSlots(connection, queue.getKey(), rate.starts());
                    return null;
                });
                ensuredQueueRates.put(queue.getKey(), rate.starts());
            }
            QueueLimits limits = new QueueLimits(limit, rate);
            if (!limits.isEmpty()) {
                readQueues.put(queue.getKey(), limits);
            }
        }
        Limits now = new Limits(
                Map.copyOf(read),
                Map.copyOf(readPerKey),
                Map.copyOf(readRates),
                Map.copyOf(readKeyRates),
                Map.copyOf(readQueues));
        if (!now.equals(limits)) {
            log.info(
                    "Flow limits in force: per kind {}, per key {}, rates {}, rates per key {}, per queue {}",
                    read,
                    readPerKey,
                    readRates,
                    readKeyRates,
                    readQueues);
        }
        limits = now;
    }

    /** How many key slot rows one prune transaction locks and looks at. */
    private static final int PRUNE_BATCH = 200;

    /** Where the next prune of key slot rows starts: {kind, key}, in key order. */
    private volatile String[] pruneCursor = {"", ""};

    /** Where the next prune of key rate slot rows starts: {kind, key}, in key order. */
    private volatile String[] rateCursor = {"", ""};

    /**
     * Deletes the slot rows of keys that have no pending or running task (a leader duty, every prune interval):
     * one transaction locks a batch of rows with {@code SKIP LOCKED} (so no claim can take them meanwhile), reads
     * which of their keys are busy, in a statement after the locks, and deletes the others' rows by primary key.
     * A key met again gets its rows back at its next claim. Nothing running can lose its slot: a key with a running
     * task is busy. The rate slot rows of idle keys go the same way, each once its last start is a period old, so
     * that a key whose rows come back cannot start more than its limit in one window.
     *
     * @return how many rows it deleted
     */
    public int pruneIdleKeySlots() throws SQLException {
        int deleted = prune(false);
        deleted += prune(true);
        if (deleted > 0) {
            log.debug("Pruned {} slot rows of idle limit keys", deleted);
        }
        return deleted;
    }

    private int prune(boolean rates) throws SQLException {
        int deleted = 0;
        Map<String, Long> periods = new HashMap<>();
        limits.keyRates()
                .forEach((kind, rate) -> periods.put(kind, rate.period().toNanos() / 1_000));
        // At most a few batches a run, so that a huge table is worked through over several prune intervals.
        for (int batch = 0; batch < 50; batch++) {
            String[] after = rates ? rateCursor : pruneCursor;
            int[] counts = storage.transactions().run("flow key slot prune", connection -> {
                List<FlowStore.KeySlot> locked = rates
                        ? store.lockKeyRateSlotsAfter(connection, after[0], after[1], PRUNE_BATCH)
                        : store.lockKeySlotsAfter(connection, after[0], after[1], PRUNE_BATCH);
                if (locked.isEmpty()) {
                    return new int[] {0, 0};
                }
                Map<String, java.util.Set<String>> keysByKind = new LinkedHashMap<>();
                for (FlowStore.KeySlot row : locked) {
                    keysByKind
                            .computeIfAbsent(row.kind(), k -> new java.util.LinkedHashSet<>())
                            .add(row.key());
                }
                Map<String, java.util.Set<String>> busy = new HashMap<>();
                for (Map.Entry<String, java.util.Set<String>> kind : keysByKind.entrySet()) {
                    busy.put(kind.getKey(), store.busyKeys(connection, kind.getKey(), kind.getValue()));
                }
                List<FlowStore.KeySlot> idle = locked.stream()
                        .filter(row -> !busy.get(row.kind()).contains(row.key()))
                        .toList();
                int gone = 0;
                if (!idle.isEmpty() && rates) {
                    gone = store.deleteKeyRateSlots(connection, idle, periods, storage.offsetMicros());
                } else if (!idle.isEmpty()) {
                    store.deleteKeySlots(connection, idle);
                    gone = idle.size();
                }
                FlowStore.KeySlot last = locked.get(locked.size() - 1);
                String[] next = {last.kind(), last.key()};
                if (rates) {
                    rateCursor = next;
                } else {
                    pruneCursor = next;
                }
                return new int[] {locked.size(), gone};
            });
            deleted += counts[1];
            if (counts[0] < PRUNE_BATCH) {
                if (rates) {
                    rateCursor = new String[] {"", ""};
                } else {
                    pruneCursor = new String[] {"", ""};
                }
                break;
            }
        }
        return deleted;
    }

    /** The flow tables' SQL, for the admin API. */
    FlowStore store() {
        return store;
    }

    /** Whether this node registers {@code kind}. */
    boolean registers(String kind) {
        return declared.containsKey(kind);
    }

    /** Whether this node serves {@code queue}. */
    boolean serves(String queue) {
        return declaredQueues.containsKey(queue);
    }

    /**
     * Sets how long claims skip the tasks of unlimited kinds in a queue after a claim found none to spare (the
     * node's poll interval): an unlimited task in a queue that also holds limited kinds may start up to this much
     * later than it would without limits.
     */
    public void quietPeriod(java.time.Duration period) {
        this.quietNanos = period.toNanos();
    }

    /** Sets how many tasks of each queue this node runs at once, which bounds the chains of one claim. */
    public void workers(Map<String, Integer> perQueue) {
        this.workers = Map.copyOf(perQueue);
    }

    /** Whether any kind is limited, so that claims must go through {@link #claim}. */
    public boolean active() {
        return !limits.isEmpty();
    }

    /**
     * Whether the end of {@code task} frees a slot that held-back tasks may wait for: its kind has a concurrency or
     * per-key limit, or its queue a limit. Rate slots free with time, not with the end of a task.
     */
    public boolean freesSlot(ClaimedTask task) {
        if (chainedAhead.contains(task.id())) {
            // The next task of its chain holds the slot on.
            return false;
        }
        Limits now = limits;
        return !now.isEmpty()
                && (now.perKind().containsKey(task.kind())
                        || now.perKey().containsKey(task.kind())
                        || now.perQueue()
                                        .getOrDefault(task.queue(), QueueLimits.NONE)
                                        .concurrency()
                                != null);
    }

    /**
     * Forgets a task that has ended on this node, or was given back; returns false if it was ahead of others in its
     * slot's chain, whose end frees nothing, true if its end may let held-back tasks start (a concurrency slot
     * freed, or time gone by for a rate slot).
     */
    public boolean ended(ClaimedTask task) {
        return !chainedAhead.remove(task.id());
    }

    /** The limits in force as this node last read them. */
    public Limits limits() {
        return limits;
    }

    /**
     * Claims what {@code request} asks for under the limits in force. The keys of per-key kinds to try are read
     * first, and their slot rows created where missing, each in auto-commit; then one transaction takes, for each
     * limited kind, free slots and as many of its due tasks, for each key tried, free slots of the key and as
     * many of the key's due tasks, and with the room left the tasks of every other kind and those without a key.
     *
     * @param request the claim
     * @return the claimed tasks, and the chains among them that the node must run one task after another
     * @throws SQLException if the database fails; the transaction rolled back, and no slot was taken
     */
    public Claimed claim(ClaimRequest request) throws SQLException {
        Limits now = limits;
        Map<String, List<String>> keys = new LinkedHashMap<>();
        for (String kind : now.keyedKinds()) {
            RateLimit rate = now.keyRates().get(kind);
            int slots = rate != null ? rate.starts() : now.perKey().get(kind);
            List<String> tried = storage.transactions()
                    .runStatement("flow keys", connection -> keysToTry(connection, kind, request));
            List<String> missing = tried.stream()
                    .filter(key -> ensuredKeys.getOrDefault(ensuredKey(kind, key, rate != null), 0) < slots)
                    .toList();
            if (!missing.isEmpty()) {
                // One connection for the keys met for the first time; each statement commits on its own.
                storage.transactions().runStatement("flow key slots", connection -> {
                    if (rate != null) {
                        store.ensureKeyRateSlots(connection, kind, missing, slots);
                    } else {
                        store.ensureKeySlots(connection, kind, missing, slots);
                    }
                    return null;
                });
                if (ensuredKeys.size() > 100_000) {
                    ensuredKeys.clear();
                }
                missing.forEach(key -> ensuredKeys.put(ensuredKey(kind, key, rate != null), slots));
            }
            keys.put(kind, tried);
        }
        try {
            List<ClaimedTask> tasks = storage.transactions().run("claim", connection -> {
                // A transaction run again starts its chains afresh.
                pendingChains.remove(request.leaseToken());
                return claim(connection, request, now, keys);
            });
            List<List<ClaimedTask>> chains = pendingChains.getOrDefault(request.leaseToken(), List.of());
            for (List<ClaimedTask> chain : chains) {
                for (int i = 0; i < chain.size() - 1; i++) {
                    chainedAhead.add(chain.get(i).id());
                }
            }
            if (chainedAhead.size() > 1_000_000) {
                // Tasks given back unstarted never end here; forgetting them only flushes some completions early.
                chainedAhead.clear();
            }
            return new Claimed(tasks, List.copyOf(chains));
        } finally {
            pendingChains.remove(request.leaseToken());
        }
    }

    /**
     * What a claim under flow limits took.
     *
     * @param tasks every task claimed
     * @param chains the chains of more than one task among them: each holds one slot, and the node runs its tasks
     *     one after another, in order, so that the slot never has two running at once
     */
    public record Claimed(List<ClaimedTask> tasks, List<List<ClaimedTask>> chains) {}

    /** The entry of {@link #ensuredKeys} for a key's slot rows, or for its rate slot rows. */
    private static String ensuredKey(String kind, String key, boolean rate) {
        return kind + (rate ? '\u0001' : '\u0000') + key;
    }

    /**
     * The keys a claim tries for a per-key kind: those of pending tasks of the kind and queue, in key order from
     * where the last claim stopped (wrapping around), at most a few more than the claim has room for, since some
     * are full. Each is one probe of the key index, however many tasks the key has.
     */
    private List<String> keysToTry(Connection connection, String kind, ClaimRequest request) throws SQLException {
        // A few more keys than the claim has room for chains, since some are full.
        int most = request.limit() / keyDepth(request, request.limit()) * 2 + 8;
        List<String> cursor = List.of(kind, request.queue());
        String start = keyCursors.get(cursor);
        List<String> keys = new ArrayList<>(store.nextKeys(connection, kind, request.queue(), start, most));
        if (keys.size() < most && start != null) {
            // Wrap around: the keys from the first up to where this walk started.
            for (String key : store.nextKeys(connection, kind, request.queue(), null, most - keys.size())) {
                if (key.compareTo(start) > 0 || keys.contains(key)) {
                    break;
                }
                keys.add(key);
            }
        }
        if (keys.isEmpty()) {
            keyCursors.remove(cursor);
        } else {
            keyCursors.put(cursor, keys.get(keys.size() - 1));
        }
        return keys;
    }

    private List<ClaimedTask> claim(
            Connection connection, ClaimRequest request, Limits now, Map<String, List<String>> keys)
            throws SQLException {
        QueueLimits queue = now.perQueue().getOrDefault(request.queue(), QueueLimits.NONE);
        if (queue.isEmpty()) {
            return claim(connection, request, request.limit(), now, keys);
        }
        // The queue's free slots bound the whole claim; the tasks claimed take them, whatever their kind.
        int room = request.limit();
        List<Integer> free = List.of();
        if (queue.concurrency() != null) {
            free = freeSlots(store.lockQueueSlots(connection, request.queue(), queue.concurrency()), connection, room);
            room = free.size();
        }
        List<Integer> rateSlots = List.of();
        if (queue.rate() != null && room > 0) {
            rateSlots = store.lockQueueRateSlots(
                    connection,
                    request.queue(),
                    queue.rate().starts(),
                    queue.rate().period().toNanos() / 1_000,
                    request.clockOffsetMicros(),
                    room);
            room = rateSlots.size();
        }
        if (room == 0) {
            return List.of();
        }
        List<ClaimedTask> claimed = claim(connection, request, room, now, keys);
        if (!claimed.isEmpty() && queue.concurrency() != null) {
            store.takeQueueSlots(
                    connection,
                    request.queue(),
                    free.subList(0, claimed.size()).stream()
                            .mapToInt(Integer::intValue)
                            .toArray(),
                    claimed.stream().mapToLong(ClaimedTask::id).toArray(),
                    request.leaseToken());
        }
        if (!claimed.isEmpty() && queue.rate() != null) {
            store.startOnQueue(
                    connection, request.queue(), rateSlots.subList(0, claimed.size()), request.clockOffsetMicros());
        }
        return claimed;
    }

    /**
     * Of the slots a claim locked, those free (their task no longer running with the token they recorded), at most
     * {@code most}, read in a statement after the locks so that it sees the claims that took them.
     */
    private List<Integer> freeSlots(List<FlowStore.LockedSlot> locked, Connection connection, int most)
            throws SQLException {
        Map<Long, Long> running = store.runningTokens(connection, holders(locked));
        List<Integer> free = new ArrayList<>();
        for (FlowStore.LockedSlot slot : locked) {
            if (isFree(slot, running)) {
                free.add(slot.slotNo());
                if (free.size() == most) {
                    break;
                }
            }
        }
        return free;
    }

    /** Every task of the chains that took {@code slots} last. */
    private static long[] holders(List<FlowStore.LockedSlot> slots) {
        return slots.stream()
                .flatMapToLong(slot -> java.util.Arrays.stream(slot.holders()))
                .toArray();
    }

    /** Whether no task of the chain that took {@code slot} last is running with the slot's token. */
    private static boolean isFree(FlowStore.LockedSlot slot, Map<Long, Long> running) {
        for (long id : slot.holders()) {
            Long token = running.get(id);
            if (token != null && token == slot.leaseToken()) {
                return false;
            }
        }
        return true;
    }

    /**
     * The most chains one claim of {@code request}'s queue starts on a limited kind: no more than the node runs at
     * once, so that it never holds a slot it has no worker for.
     */
    private int chainsFor(ClaimRequest request) {
        return Math.max(1, Math.min(request.limit(), workers.getOrDefault(request.queue(), request.limit())));
    }

    /**
     * How many tasks a claim takes for {@code chains} free slots with {@code room} left: one a slot, plus the part of
     * the room beyond the node's workers, which the node has earned by completing tasks quickly (its prefetch), so
     * that slow tasks never wait on a slot behind another; of that part, half at most while other kinds of the queue
     * may have work, so that a limited kind with a backlog never crowds them out; and {@link #MAX_CHAIN} a slot.
     */
    private int chainedWant(ClaimRequest request, int chains, int room) {
        int prefetch = Math.max(0, room - workers.getOrDefault(request.queue(), room));
        Long quietUntil = unlimitedQuietUntil.get(request.queue());
        boolean othersIdle = quietUntil != null && System.nanoTime() - quietUntil < 0;
        int share = othersIdle ? prefetch : prefetch / 2;
        return Math.min(room, Math.min(chains + share, chains * MAX_CHAIN));
    }

    /** How deep a per-key claim's chains are: as deep as a concurrency limit's would be with the node's workers. */
    private int keyDepth(ClaimRequest request, int room) {
        int workersHere = chainsFor(request);
        return Math.max(1, Math.min(MAX_CHAIN, chainedWant(request, workersHere, room) / workersHere));
    }

    /**
     * Splits tasks claimed in priority order over {@code slots} chains, in turn, so that the first tasks start first;
     * records the chains of more than one task for {@link #claim(ClaimRequest)} to return.
     */
    private List<List<ClaimedTask>> chain(List<ClaimedTask> tasks, int slots, ClaimRequest request) {
        int count = Math.min(slots, tasks.size());
        List<List<ClaimedTask>> chains = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            chains.add(new ArrayList<>());
        }
        for (int i = 0; i < tasks.size(); i++) {
            chains.get(i % count).add(tasks.get(i));
        }
        for (List<ClaimedTask> chain : chains) {
            if (chain.size() > 1) {
                pendingChains
                        .computeIfAbsent(request.leaseToken(), t -> new ArrayList<>())
                        .add(chain);
            }
        }
        return chains;
    }

    private static long[] ids(List<ClaimedTask> chain) {
        return chain.stream().mapToLong(ClaimedTask::id).toArray();
    }

    private List<ClaimedTask> claim(
            Connection connection, ClaimRequest request, int capacity, Limits now, Map<String, List<String>> keys)
            throws SQLException {
        List<ClaimedTask> claimed = new ArrayList<>(capacity);
        // A random order, so that when the room is short no limited kind always comes last.
        List<String> kinds = new ArrayList<>(now.perKind().keySet());
        kinds.addAll(now.perKey().keySet());
        kinds.addAll(now.rates().keySet());
        kinds.addAll(now.keyRates().keySet());
        Collections.shuffle(kinds);
        for (String kind : kinds) {
            int room = capacity - claimed.size();
            if (room == 0) {
                break;
            }
            Integer limit = now.perKind().get(kind);
            RateLimit rate = now.rates().get(kind);
            RateLimit keyRate = now.keyRates().get(kind);
            if (limit != null) {
                claimed.addAll(claimLimited(connection, request, kind, limit, room));
            } else if (rate != null) {
                claimed.addAll(claimRated(connection, request, kind, rate, room));
            } else if (keyRate != null) {
                claimed.addAll(claimKeyRated(connection, request, kind, keyRate, keys.get(kind), room));
            } else {
                claimed.addAll(
                        claimPerKey(connection, request, kind, now.perKey().get(kind), keys.get(kind), room));
            }
        }
        int room = capacity - claimed.size();
        long clock = System.nanoTime();
        Long quietUntil = unlimitedQuietUntil.get(request.queue());
        if (room > 0 && (quietUntil == null || clock - quietUntil >= 0)) {
            List<String> values = new ArrayList<>(now.perKind().keySet());
            values.addAll(now.rates().keySet());
            StringBuilder filter = new StringBuilder();
            if (!values.isEmpty()) {
                filter.append(" AND kind NOT IN (").append(marks(values.size())).append(")");
            }
            List<String> keyed = now.keyedKinds();
            if (!keyed.isEmpty()) {
                filter.append(" AND (limit_key IS NULL OR kind NOT IN (")
                        .append(marks(keyed.size()))
                        .append("))");
                values.addAll(keyed);
            }
            List<ClaimedTask> unlimited = claims.claim(connection, request, room, filter.toString(), values);
            // Only a filter walks past held-back tasks; without one, a short claim means the queue ran dry.
            if (unlimited.size() < room && filter.length() > 0) {
                unlimitedQuietUntil.put(request.queue(), clock + quietNanos);
            } else {
                unlimitedQuietUntil.remove(request.queue());
            }
            claimed.addAll(unlimited);
        }
        return claimed;
    }

    /**
     * Claims tasks of a rate-limited kind: locks rate slots whose last start is a period old, starts as many due
     * tasks, and writes the start (now, database clock) on the slots used.
     */
    private List<ClaimedTask> claimRated(
            Connection connection, ClaimRequest request, String kind, RateLimit rate, int room) throws SQLException {
        List<Integer> free = store.lockRateSlots(
                connection, kind, rate.starts(), rate.period().toNanos() / 1_000, request.clockOffsetMicros(), room);
        if (free.isEmpty()) {
            return List.of();
        }
        List<ClaimedTask> tasks = claims.claim(connection, request, free.size(), " AND kind = ?", List.of(kind));
        if (!tasks.isEmpty()) {
            store.startOn(connection, kind, free.subList(0, tasks.size()), request.clockOffsetMicros());
        }
        return tasks;
    }

    /**
     * Claims tasks of a kind with a per-key rate limit: for each key tried, locks its rate slots, and starts as many
     * of the key's due tasks as it found slots whose last start is a period old, writing the start (now, database
     * clock) on the slots used.
     */
    private List<ClaimedTask> claimKeyRated(
            Connection connection, ClaimRequest request, String kind, RateLimit rate, List<String> keys, int room)
            throws SQLException {
        if (keys == null || keys.isEmpty()) {
            return List.of();
        }
        List<FlowStore.LockedKeyRateSlot> locked = store.lockKeyRateSlots(
                connection, kind, keys, rate.starts(), rate.period().toNanos() / 1_000, request.clockOffsetMicros());
        Map<String, Integer> lockedPerKey = new HashMap<>();
        Map<String, List<FlowStore.KeySlot>> free = new LinkedHashMap<>();
        for (FlowStore.LockedKeyRateSlot slot : locked) {
            lockedPerKey.merge(slot.slot().key(), 1, Integer::sum);
            if (slot.free()) {
                free.computeIfAbsent(slot.slot().key(), key -> new ArrayList<>())
                        .add(slot.slot());
            }
        }
        // Fewer rows than the limit: another claim holds some, or they were pruned; the next claim that meets the
        // key makes sure they exist.
        for (String key : keys) {
            if (lockedPerKey.getOrDefault(key, 0) < rate.starts()) {
                ensuredKeys.remove(ensuredKey(kind, key, true));
            }
        }
        List<ClaimedTask> claimed = new ArrayList<>();
        List<FlowStore.KeySlot> used = new ArrayList<>();
        for (Map.Entry<String, List<FlowStore.KeySlot>> key : free.entrySet()) {
            int want = Math.min(key.getValue().size(), room - claimed.size());
            if (want == 0) {
                break;
            }
            List<ClaimedTask> tasks = claims.lockKey(connection, request, want, kind, key.getKey());
            used.addAll(key.getValue().subList(0, tasks.size()));
            claimed.addAll(tasks);
        }
        // One update takes the leases of every key's tasks.
        claims.take(connection, request, claimed);
        if (!used.isEmpty()) {
            store.startOnKeys(connection, used, request.clockOffsetMicros());
        }
        return claimed;
    }

    private static String marks(int count) {
        return String.join(", ", Collections.nCopies(count, "?"));
    }

    private List<ClaimedTask> claimPerKey(
            Connection connection, ClaimRequest request, String kind, int limit, List<String> keys, int room)
            throws SQLException {
        if (keys == null || keys.isEmpty()) {
            return List.of();
        }
        List<FlowStore.LockedKeySlot> locked = store.lockKeySlots(connection, kind, keys, limit);
        // A key with fewer rows locked than its limit had them held by another claim, or pruned: the next claim
        // that meets it makes sure they exist again.
        Map<String, Integer> lockedPerKey = new HashMap<>();
        locked.forEach(slot -> lockedPerKey.merge(slot.key(), 1, Integer::sum));
        for (String key : keys) {
            if (lockedPerKey.getOrDefault(key, 0) < limit) {
                ensuredKeys.remove(ensuredKey(kind, key, false));
            }
        }
        Map<Long, Long> running = store.runningTokens(
                connection,
                holders(locked.stream().map(FlowStore.LockedKeySlot::slot).toList()));
        Map<String, List<Integer>> free = new LinkedHashMap<>();
        for (FlowStore.LockedKeySlot keySlot : locked) {
            if (isFree(keySlot.slot(), running)) {
                free.computeIfAbsent(keySlot.key(), key -> new ArrayList<>())
                        .add(keySlot.slot().slotNo());
            }
        }
        // Chains as deep as a concurrency limit's would be; a key's slots are its own, so a claim may take more
        // chains than the node has workers (the extra ones wait, as prefetched tasks do, holding only their keys).
        int depth = keyDepth(request, room);
        List<ClaimedTask> claimed = new ArrayList<>();
        List<String> takenKeys = new ArrayList<>();
        List<Integer> takenSlots = new ArrayList<>();
        List<long[]> takenChains = new ArrayList<>();
        Map<String, Integer> wanted = new LinkedHashMap<>();
        free.forEach((key, slots) -> wanted.put(key, slots.size() * depth));
        Map<String, List<ClaimedTask>> lockedTasks = claims.lockPerKey(connection, request, kind, wanted, room);
        for (Map.Entry<String, List<Integer>> key : free.entrySet()) {
            int slots = key.getValue().size();
            List<ClaimedTask> tasks = lockedTasks.getOrDefault(key.getKey(), List.of());
            if (tasks.isEmpty()) {
                continue;
            }
            List<List<ClaimedTask>> chains = chain(tasks, slots, request);
            for (int i = 0; i < chains.size(); i++) {
                takenKeys.add(key.getKey());
                takenSlots.add(key.getValue().get(i));
                takenChains.add(ids(chains.get(i)));
            }
            claimed.addAll(tasks);
        }
        // One update takes the leases of every key's tasks.
        claims.take(connection, request, claimed);
        if (!claimed.isEmpty()) {
            store.takeKeySlots(
                    connection,
                    kind,
                    takenKeys,
                    takenSlots.stream().mapToInt(Integer::intValue).toArray(),
                    takenChains,
                    request.leaseToken());
        }
        return claimed;
    }

    private List<ClaimedTask> claimLimited(
            Connection connection, ClaimRequest request, String kind, int limit, int room) throws SQLException {
        List<FlowStore.LockedSlot> locked = store.lockSlots(connection, kind, limit);
        if (locked.isEmpty()) {
            return List.of();
        }
        List<Integer> free = freeSlots(locked, connection, Math.min(room, chainsFor(request)));
        if (free.isEmpty()) {
            return List.of();
        }
        List<ClaimedTask> tasks = claims.claim(
                connection, request, chainedWant(request, free.size(), room), " AND kind = ?", List.of(kind));
        if (!tasks.isEmpty()) {
            List<List<ClaimedTask>> chains = chain(tasks, free.size(), request);
            int[] slotNos = new int[chains.size()];
            for (int i = 0; i < slotNos.length; i++) {
                slotNos[i] = free.get(i);
            }
            store.take(
                    connection,
                    kind,
                    slotNos,
                    chains.stream().map(FlowControl::ids).toList(),
                    request.leaseToken());
        }
        return tasks;
    }
}
