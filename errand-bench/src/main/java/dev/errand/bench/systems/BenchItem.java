package dev.errand.bench.systems;

import dev.errand.jpa.state.QueueState;
import jakarta.persistence.Column;
import jakarta.persistence.Embedded;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

/**
 * The entity of the entity-queue benchmark: an id, a version, the enqueue stamp, and one queue state with
 * the index that docs/JPA-QUEUES.md recommends.
 */
@Entity
@Table(name = EntityQueueSystem.TABLE, indexes = @Index(columnList = "status, next_attempt_at"))
public class BenchItem {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Version
    private long version;

    @Column(name = "stamp", nullable = false)
    private long stamp;

    @Embedded
    private QueueState state = QueueState.pending();

    /** For JPA. */
    protected BenchItem() {}

    /** A new item, pending as soon as possible. */
    public BenchItem(long stamp) {
        this.stamp = stamp;
    }

    /** The enqueue stamp, or 0. */
    public long stamp() {
        return stamp;
    }
}
