package dev.errand.examples.jpa;

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
import java.util.UUID;
import org.hibernate.annotations.EmbeddedColumnNaming;

/**
 * An SMS message, and the queue: its row carries its sending state, and a second state for telling the CRM
 * once it is delivered. There is no task row; saving the message with its state pending is the enqueue.
 * Each state gets its own columns ({@code send_status}, {@code crm_status}, ...) and the index that claims
 * need.
 */
@Entity
@Table(
        name = "jpa_sms_message",
        indexes = {
            @Index(name = "jpa_sms_message_send_due", columnList = "send_status, send_next_attempt_at"),
            @Index(name = "jpa_sms_message_crm_due", columnList = "crm_status, crm_next_attempt_at")
        })
public class SmsMessage {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    /** Stops an application that holds an old copy from writing an old queue state back. */
    @Version
    private long version;

    @Column(name = "uid", nullable = false, unique = true, length = 36)
    private String uid;

    @Column(name = "batch", nullable = false, length = 8)
    private String batch;

    @Column(name = "from_address", nullable = false, length = 16)
    private String fromAddress;

    @Column(name = "to_address", nullable = false, length = 16)
    private String toAddress;

    @Column(name = "text", nullable = false, length = 160)
    private String text;

    @Embedded
    @EmbeddedColumnNaming("send_%s")
    private QueueState sendState = QueueState.pending();

    @Embedded
    @EmbeddedColumnNaming("crm_%s")
    private QueueState crmState = new QueueState();

    /** For JPA. */
    protected SmsMessage() {}

    /** A new message, to be sent as soon as possible once it is saved. */
    public SmsMessage(String batch, String fromAddress, String toAddress, String text) {
        this.uid = UUID.randomUUID().toString();
        this.batch = batch;
        this.fromAddress = fromAddress;
        this.toAddress = toAddress;
        this.text = text;
    }

    /** The id. */
    public Long id() {
        return id;
    }

    /** The demo run that queued it. */
    public String batch() {
        return batch;
    }

    /** The sender's short code. */
    public String fromAddress() {
        return fromAddress;
    }

    /** The recipient's number. */
    public String toAddress() {
        return toAddress;
    }

    /** The text. */
    public String text() {
        return text;
    }

    /** Where the message stands in the send queue. */
    public QueueState sendState() {
        return sendState;
    }

    /** Where the message stands in the "notify the CRM" queue; in none until it was sent. */
    public QueueState crmState() {
        return crmState;
    }

    @Override
    public String toString() {
        return "SmsMessage[id=" + id + ", to=" + toAddress + ", from=" + fromAddress + ", send=" + sendState.status()
                + "]";
    }
}
