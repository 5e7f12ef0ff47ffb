package dev.errand.jpa.internal;

import dev.errand.jpa.state.QueueState;
import dev.errand.jpa.state.QueueStatus;
import dev.errand.retry.Delays;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.Query;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.hibernate.query.NativeQuery;

/**
 * Runs the SQL of one entity queue ({@link QueueSql}) on the entity manager of the caller's transaction,
 * as native queries that Hibernate synchronizes with the entity's caches.
 */
public final class QueueStore {

    private static final long MAX_MICROS = Delays.MAX.toNanos() / 1_000;

    private final QueueTable table;
    private final SqlDialect dialect;
    private final QueueSql sql;
    private final Class<?> entityType;
    private final Function<Object, QueueState> stateOf;

    /**
     * Creates the store of one queue.
     *
     * @param stateOf reads the queue's state from a loaded entity
     */
    public QueueStore(QueueTable table, SqlDialect dialect, Class<?> entityType, Function<Object, QueueState> stateOf) {
        this.table = table;
        this.dialect = dialect;
        this.sql = new QueueSql(table, dialect);
        this.entityType = entityType;
        this.stateOf = stateOf;
    }

    /** The table and columns. */
    public QueueTable table() {
        return table;
    }

    /** The dialect. */
    public SqlDialect dialect() {
        return dialect;
    }

    /**
     * Claims up to {@code limit} pending items for {@code owner}: first those due by their time, oldest first,
     * then those enqueued "as soon as possible". They become in progress, their attempt counted, under a new
     * lease with {@code token}.
     */
    public List<ClaimedItem> claim(
            EntityManager em, int limit, String owner, long token, long offsetMicros, long leaseMicros) {
        Claim claim = new Claim(owner, token, offsetMicros, plus(offsetMicros, leaseMicros));
        List<ClaimedItem> claimed = claim(em, claim, limit, true);
        if (claimed.size() < limit) {
            claimed.addAll(claim(em, claim, limit - claimed.size(), false));
        }
        return claimed;
    }

    private record Claim(String owner, long token, long offsetMicros, long leaseEndMicros) {}

    private List<ClaimedItem> claim(EntityManager em, Claim claim, int limit, boolean due) {
        List<ClaimedItem> claimed = new ArrayList<>(limit);
        if (dialect.updateReturning()) {
            for (Object row : query(em, due ? sql.claimDueReturning : sql.claimUnscheduledReturning)
                    .addScalar(QueueSql.ID, table.idType())
                    .addScalar(QueueSql.ATTEMPTS, Integer.class)
                    .setParameter("offset", claim.offsetMicros())
                    .setParameter("lease", claim.leaseEndMicros())
                    .setParameter("owner", claim.owner())
                    .setParameter("token", claim.token())
                    .setParameter("limit", limit)
                    .getResultList()) {
                Object[] values = (Object[]) row;
                claimed.add(new ClaimedItem(values[0], (Integer) values[1], claim.token(), claim.owner()));
            }
            return claimed;
        }
        NativeQuery<?> select = query(em, due ? sql.claimDueLocked : sql.claimUnscheduledLocked)
                .addScalar(QueueSql.ID, table.idType())
                .addScalar(QueueSql.ATTEMPTS, Integer.class)
                .setParameter("limit", limit);
        if (due) {
            select.setParameter("offset", claim.offsetMicros());
        }
        List<Object> ids = new ArrayList<>(limit);
        for (Object row : select.getResultList()) {
            Object[] values = (Object[]) row;
            ids.add(values[0]);
            claimed.add(new ClaimedItem(values[0], (Integer) values[1] + 1, claim.token(), claim.owner()));
        }
        if (ids.isEmpty()) {
            return claimed;
        }
        int updated = query(em, sql.claimIds)
                .setParameter("offset", claim.offsetMicros())
                .setParameter("lease", claim.leaseEndMicros())
                .setParameter("owner", claim.owner())
                .setParameter("token", claim.token())
                .setParameterList("ids", ids)
                .executeUpdate();
        if (updated != ids.size()) {
            throw new IllegalStateException(
                    "Locked " + ids.size() + " due items of " + table.table() + " but the claim updated " + updated);
        }
        return claimed;
    }

    /**
     * Locks and loads the entity of a claimed item for its attempt, if the attempt still holds it: one
     * {@code SELECT … FOR UPDATE} that reads the entity fresh from the database.
     *
     * @return the entity, or empty if it is gone or another node has taken the item
     */
    public <E> Optional<E> lockAndLoad(EntityManager em, Class<E> type, Object id, long token) {
        E entity = em.find(type, id, LockModeType.PESSIMISTIC_WRITE);
        if (entity == null) {
            return Optional.empty();
        }
        QueueState state = stateOf.apply(entity);
        boolean held = state != null
                && state.status() == QueueStatus.IN_PROGRESS
                && Long.valueOf(token).equals(state.leaseToken());
        return held ? Optional.of(entity) : Optional.empty();
    }

    /**
     * Locks a claimed item for its attempt, if the attempt still holds it.
     *
     * @return the attempt count, or empty if the item is gone or was rescued by another node
     */
    public Optional<Integer> lock(EntityManager em, Object id, long token) {
        List<?> rows = query(em, sql.lockForProcessing)
                .addScalar(QueueSql.ATTEMPTS, Integer.class)
                .setParameter("id", id)
                .setParameter("token", token)
                .getResultList();
        return rows.isEmpty() ? Optional.empty() : Optional.of((Integer) rows.get(0));
    }

    /** Marks a locked item done and drops its lease. */
    public void complete(EntityManager em, Object id, long token) {
        requireOne(
                query(em, sql.complete)
                        .setParameter("id", id)
                        .setParameter("token", token)
                        .executeUpdate(),
                id);
    }

    /** Puts a locked item back to pending, due after {@code delayMicros}, with its error. */
    public void retry(EntityManager em, Object id, long token, String error, long offsetMicros, long delayMicros) {
        requireOne(
                query(em, sql.retry)
                        .setParameter("delay", plus(offsetMicros, delayMicros))
                        .setParameter("error", error)
                        .setParameter("id", id)
                        .setParameter("token", token)
                        .executeUpdate(),
                id);
    }

    /** Marks a locked item failed for good, with its error. */
    public void fail(EntityManager em, Object id, long token, String error) {
        requireOne(
                query(em, sql.fail)
                        .setParameter("error", error)
                        .setParameter("id", id)
                        .setParameter("token", token)
                        .executeUpdate(),
                id);
    }

    /** Locks one item whose lease expired and that no live transaction holds, or returns empty. */
    public Optional<ClaimedItem> lockExpired(EntityManager em, long offsetMicros) {
        List<?> rows = query(em, sql.lockExpired)
                .addScalar(QueueSql.ID, table.idType())
                .addScalar(QueueSql.ATTEMPTS, Integer.class)
                .addScalar(QueueSql.OWNER, String.class)
                .addScalar(QueueSql.TOKEN, Long.class)
                .setParameter("offset", offsetMicros)
                .getResultList();
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        Object[] values = (Object[]) rows.get(0);
        return Optional.of(new ClaimedItem(values[0], (Integer) values[1], (Long) values[3], (String) values[2]));
    }

    /**
     * Hands items claimed under {@code token} back, pending and due as before, with their claim's attempt
     * uncounted; items another node has taken since are left alone.
     *
     * @return how many it handed back
     */
    public int release(EntityManager em, long token, List<Object> ids) {
        return query(em, sql.release)
                .setParameter("token", token)
                .setParameterList("ids", ids)
                .executeUpdate();
    }

    /** Puts every failed item back to pending, due now, with no attempts counted; returns how many. */
    public int resetFailed(EntityManager em, long offsetMicros) {
        return query(em, sql.resetFailed).setParameter("offset", offsetMicros).executeUpdate();
    }

    /** Counts the items of each status; a status without items counts 0. */
    public Map<QueueStatus, Long> countByStatus(EntityManager em) {
        Map<QueueStatus, Long> counts = new EnumMap<>(QueueStatus.class);
        for (QueueStatus status : QueueStatus.values()) {
            counts.put(status, 0L);
        }
        for (Object row : query(em, sql.countByStatus)
                .addScalar(QueueSql.STATUS, String.class)
                .addScalar(QueueSql.COUNT, Long.class)
                .getResultList()) {
            Object[] values = (Object[]) row;
            String status = ((String) values[0]).strip();
            for (QueueStatus known : QueueStatus.values()) {
                if (known.name().equals(status)) {
                    counts.put(known, (Long) values[1]);
                }
            }
        }
        return counts;
    }

    private NativeQuery<?> query(EntityManager em, String statement) {
        Query query = em.createNativeQuery(statement);
        // Only the entity's own cache regions go stale, not every region of the persistence unit.
        NativeQuery<?> hibernate = query.unwrap(NativeQuery.class);
        return hibernate.addSynchronizedEntityClass(entityType);
    }

    private void requireOne(int updated, Object id) {
        if (updated != 1) {
            throw new IllegalStateException("Item " + id + " of " + table.table() + " was locked by this attempt"
                    + " but its update changed " + updated + " rows");
        }
    }

    private static long plus(long offsetMicros, long micros) {
        // Delays are capped at 100 years (Delays.MAX), so the sum cannot overflow.
        return offsetMicros + Math.min(micros, MAX_MICROS);
    }
}
