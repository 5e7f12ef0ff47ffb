package dev.errand.jpa.state;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import java.time.Instant;

/**
 * The queueing state of an entity in one queue, embedded in the entity's own table. Enqueueing is
 * saving the entity with this state pending, in the caller's transaction, so the item exists exactly
 * when that transaction commits:
 *
 * <pre>{@code
 * @Entity
 * public class SmsMessage {
 *     @Id @GeneratedValue Long id;
 *     @Version long version;
 *     @Embedded @EmbeddedColumnNaming("send_%s")
 *     QueueState sendState = QueueState.pending();
 * }
 * }</pre>
 *
 * <p>An entity may embed several states, one per queue (for example "send" and "notify the CRM"); give each
 * its own column names with Hibernate's {@code @EmbeddedColumnNaming} or with {@code @AttributeOverride}s.
 * The columns are {@code status}, {@code next_attempt_at}, {@code attempts}, {@code last_attempt_at},
 * {@code last_error}, and the lease that crash recovery uses: {@code lease_owner}, {@code lease_token},
 * {@code lease_expires_at}.
 *
 * <p>Only the queue's node changes a state once it is pending: it claims the row, counts the attempt,
 * and records the outcome with SQL that reads the database's clock. The application only enqueues.
 */
@Embeddable
public class QueueState {

    /** The longest error text stored; longer ones are cut. */
    public static final int ERROR_LENGTH = 1000;

    @Enumerated(EnumType.STRING)
    @Column(name = "status", length = 16)
    private QueueStatus status;

    @Column(name = "next_attempt_at")
    private Instant nextAttemptAt;

    @Column(name = "attempts", nullable = false)
    private int attempts;

    @Column(name = "last_attempt_at")
    private Instant lastAttemptAt;

    @Column(name = "last_error", length = ERROR_LENGTH)
    private String lastError;

    @Column(name = "lease_owner", length = 200)
    private String leaseOwner;

    @Column(name = "lease_token")
    private Long leaseToken;

    @Column(name = "lease_expires_at")
    private Instant leaseExpiresAt;

    /** A state that is in no queue yet; {@link #enqueue()} puts it in. JPA also uses this constructor. */
    public QueueState() {}

    /** A new state, pending as soon as possible. */
    public static QueueState pending() {
        QueueState state = new QueueState();
        state.enqueue();
        return state;
    }

    /**
     * A new state, pending from {@code at} on.
     *
     * @throws IllegalArgumentException if {@code at} is null
     */
    public static QueueState pendingAt(Instant at) {
        QueueState state = new QueueState();
        state.enqueueAt(at);
        return state;
    }

    /**
     * Puts the item (back) in its queue, due as soon as possible: pending, with no attempts counted and no
     * {@code next_attempt_at}; claims take such items after those already due by their time. Save the
     * entity in a transaction to enqueue it.
     *
     * @throws IllegalStateException if the item is being processed now
     */
    public void enqueue() {
        requireNotInProgress();
        reset(null);
    }

    /**
     * Puts the item (back) in its queue, due from {@code at} on, compared with the database's clock.
     *
     * @throws IllegalArgumentException if {@code at} is null; use {@link #enqueue()} for "as soon as possible"
     * @throws IllegalStateException if the item is being processed now
     */
    public void enqueueAt(Instant at) {
        if (at == null) {
            throw new IllegalArgumentException("The time to enqueue at must not be null; call enqueue() to process"
                    + " the item as soon as possible");
        }
        requireNotInProgress();
        reset(at);
    }

    private void requireNotInProgress() {
        if (status == QueueStatus.IN_PROGRESS) {
            throw new IllegalStateException("The item is being processed by node " + leaseOwner + " (attempt "
                    + attempts + "); enqueue it again once it is DONE or FAILED");
        }
    }

    private void reset(Instant at) {
        status = QueueStatus.PENDING;
        nextAttemptAt = at;
        attempts = 0;
        leaseOwner = null;
        leaseToken = null;
        leaseExpiresAt = null;
    }

    /** The status, or {@code null} if the item was never enqueued in this queue. */
    public QueueStatus status() {
        return status;
    }

    /** When the next attempt is due, in the database's time; {@code null} while "as soon as possible" or not pending. */
    public Instant nextAttemptAt() {
        return nextAttemptAt;
    }

    /** How many attempts were made since the item was last enqueued. */
    public int attempts() {
        return attempts;
    }

    /** When the last attempt started, in the database's time, or {@code null}. */
    public Instant lastAttemptAt() {
        return lastAttemptAt;
    }

    /** The error of the last failed attempt, or {@code null}; kept after a later success as history. */
    public String lastError() {
        return lastError;
    }

    /** The node that holds the item while it is in progress, or {@code null}. */
    public String leaseOwner() {
        return leaseOwner;
    }

    /** The fencing token of the attempt in progress, or {@code null}. */
    public Long leaseToken() {
        return leaseToken;
    }

    /** When the lease of the attempt in progress ends, in the database's time, or {@code null}. */
    public Instant leaseExpiresAt() {
        return leaseExpiresAt;
    }

    @Override
    public String toString() {
        return "QueueState[status=" + status + ", nextAttemptAt=" + nextAttemptAt + ", attempts=" + attempts
                + ", lastAttemptAt=" + lastAttemptAt + ", lastError=" + lastError + ", leaseOwner=" + leaseOwner
                + ", leaseExpiresAt=" + leaseExpiresAt + "]";
    }
}
