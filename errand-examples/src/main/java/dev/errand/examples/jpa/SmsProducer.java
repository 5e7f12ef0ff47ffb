package dev.errand.examples.jpa;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Queues SMS messages: saving them is the enqueue, in this method's transaction, so either all of a batch is
 * queued or none of it.
 */
@Service
public class SmsProducer {

    /** The demo's senders (short codes). */
    static final List<String> SENDERS = List.of("80111", "80333", "80444", "80555");

    private final SmsMessageRepository repository;

    /** Creates the producer. */
    public SmsProducer(SmsMessageRepository repository) {
        this.repository = repository;
    }

    /** Queues {@code count} messages as batch {@code batch}; every tenth goes to a number the gateway does not know. */
    @Transactional
    public List<SmsMessage> queue(String batch, int count) {
        List<SmsMessage> messages = new ArrayList<>(count);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 1; i <= count; i++) {
            String to = i % 10 == 0
                    ? "+38591" + String.format("%03d", i / 10) + "0000"
                    : "+38591334" + String.format("%04d", i);
            messages.add(new SmsMessage(
                    batch,
                    SENDERS.get(random.nextInt(SENDERS.size())),
                    to,
                    "Hello, this is message " + i + " of batch " + batch));
        }
        return repository.saveAll(messages);
    }
}
