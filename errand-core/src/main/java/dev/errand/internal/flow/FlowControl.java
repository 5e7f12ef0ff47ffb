package dev.errand.internal.flow;

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
import java.util.stream.Collectors;
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
    /** The kinds this node registers, each with the limit it declares, or null for none. */
    private final Map<String, Integer> declared;
    /** The slots created so far, per kind, so that a refresh creates only missing ones. */
    private final Map<String, Integer> ensured = new ConcurrentHashMap<>();

    /** The limits in force, by kind; until the first read, the node's own declarations. */
    private volatile Map<String, Integer> limits;

    private volatile boolean declarationsWritten;

    /**
     * Creates the flow control of a node.
     *
     * @param storage the task table and its transactions
     * @param tablePrefix the table prefix
     * @param declared every kind the node registers, with the limit its definition declares, or null
     */
    public FlowControl(Storage storage, String tablePrefix, Map<String, Integer> declared) {
        this.storage = storage;
        this.store = new FlowStore(storage.dialect(), tablePrefix);
        this.claims = new FilteredClaim(storage.dialect(), tablePrefix + "task");
        this.declared = Collections.unmodifiableMap(new HashMap<>(declared));
        Map<String, Integer> own = new LinkedHashMap<>();
        declared.forEach((kind, limit) -> {
            if (limit != null) {
                own.put(kind, limit);
            }
        });
        this.limits = Map.copyOf(own);
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
                for (Map.Entry<String, Integer> kind : declared.entrySet()) {
                    store.set(connection, kind.getKey(), FlowStore.Source.DECLARED, kind.getValue());
                }
                return null;
            });
            declarationsWritten = true;
        }
        Map<String, FlowStore.LimitRow> rows = storage.transactions().runStatement("flow limits", store::limits);
        Map<String, Integer> read = new LinkedHashMap<>();
        for (FlowStore.LimitRow row : rows.values()) {
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
        if (!read.equals(limits)) {
            log.info("Flow limits in force: {}", read.isEmpty() ? "none" : read);
        }
        limits = Map.copyOf(read);
    }

    /** Whether any kind is limited, so that claims must go through {@link #claim}. */
    public boolean active() {
        return !limits.isEmpty();
    }

    /** The limits in force as this node last read them, by kind. */
    public Map<String, Integer> limits() {
        return limits;
    }

    /**
     * Claims what {@code request} asks for under the limits in force, in the caller's transaction: first the
     * tasks of limited kinds, each on a free slot of its kind, then the tasks of the other kinds.
     *
     * @param connection a connection in a transaction, committed by the caller
     * @param request the claim
     * @return the claimed tasks
     * @throws SQLException if the database fails; the caller rolls back, and no slot was taken
     */
    public List<ClaimedTask> claim(Connection connection, ClaimRequest request) throws SQLException {
        Map<String, Integer> now = limits;
        List<ClaimedTask> claimed = new ArrayList<>(request.limit());
        // A random order, so that when the room is short no limited kind always comes last.
        List<String> kinds = new ArrayList<>(now.keySet());
        Collections.shuffle(kinds);
        for (String kind : kinds) {
            int room = request.limit() - claimed.size();
            if (room == 0) {
                break;
            }
            claimed.addAll(claimLimited(connection, request, kind, now.get(kind), room));
        }
        int room = request.limit() - claimed.size();
        if (room > 0) {
            List<String> limited = new ArrayList<>(now.keySet());
            String filter =
                    " AND kind NOT IN (" + limited.stream().map(kind -> "?").collect(Collectors.joining(", ")) + ")";
            claimed.addAll(claims.claim(connection, request, room, filter, limited));
        }
        return claimed;
    }

    private List<ClaimedTask> claimLimited(
            Connection connection, ClaimRequest request, String kind, int limit, int room) throws SQLException {
        List<FlowStore.LockedSlot> locked = store.lockSlots(connection, kind, limit);
        if (locked.isEmpty()) {
            return List.of();
        }
        long[] holders = locked.stream()
                .filter(slot -> slot.taskId() != null)
                .mapToLong(FlowStore.LockedSlot::taskId)
                .toArray();
        Map<Long, Long> running = store.runningTokens(connection, holders);
        List<Integer> free = new ArrayList<>();
        for (FlowStore.LockedSlot slot : locked) {
            Long token = slot.taskId() == null ? null : running.get(slot.taskId());
            if (token == null || token != slot.leaseToken()) {
                free.add(slot.slotNo());
                if (free.size() == room) {
                    break;
                }
            }
        }
        if (free.isEmpty()) {
            return List.of();
        }
        List<ClaimedTask> tasks = claims.claim(connection, request, free.size(), " AND kind = ?", List.of(kind));
        if (!tasks.isEmpty()) {
            int[] slotNos = new int[tasks.size()];
            long[] ids = new long[tasks.size()];
            for (int i = 0; i < ids.length; i++) {
                slotNos[i] = free.get(i);
                ids[i] = tasks.get(i).id();
            }
            store.take(connection, kind, slotNos, ids, request.leaseToken());
        }
        return tasks;
    }
}
