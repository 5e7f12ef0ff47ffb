package dev.errand.jpa.testing;

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
import org.hibernate.annotations.EmbeddedColumnNaming;

/** A test entity with two queues: "send" and "notify the CRM". */
@Entity
// Index names are left to Hibernate, which derives them from the (prefixed) table name: no two runs collide.
@Table(
        name = "jpa_message",
        indexes = {
            @Index(columnList = "send_status, send_next_attempt_at"),
            @Index(columnList = "crm_status, crm_next_attempt_at")
        })
public class Message {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Version
    private long version;

    @Column(name = "body", nullable = false, length = 200)
    private String body;

    /** How many committed sends: the effect that must happen exactly once. */
    @Column(name = "sends", nullable = false)
    private int sends;

    @Column(name = "note", length = 200)
    private String note;

    @Embedded
    @EmbeddedColumnNaming("send_%s")
    private QueueState sendState = QueueState.pending();

    @Embedded
    @EmbeddedColumnNaming("crm_%s")
    private QueueState crmState = new QueueState();

    protected Message() {}

    public Message(String body) {
        this.body = body;
    }

    public Long id() {
        return id;
    }

    public String body() {
        return body;
    }

    public int sends() {
        return sends;
    }

    public void sent() {
        sends++;
    }

    public String note() {
        return note;
    }

    public void note(String note) {
        this.note = note;
    }

    public QueueState sendState() {
        return sendState;
    }

    public QueueState crmState() {
        return crmState;
    }
}
