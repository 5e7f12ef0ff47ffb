package dev.errand.jpa.testing;

import dev.errand.jpa.state.QueueState;
import jakarta.persistence.Embedded;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A test entity whose table lacks the recommended index. */
@Entity
@Table(name = "jpa_unindexed")
public class Unindexed {

    @Id
    private String id;

    @Embedded
    private QueueState state = QueueState.pending();

    protected Unindexed() {}

    public Unindexed(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    public QueueState state() {
        return state;
    }
}
