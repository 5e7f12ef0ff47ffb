package dev.errand.examples.sms;

import dev.errand.Errand;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/**
 * Queues the run's messages, logs progress every second until no message of any batch is still queued,
 * and prints a summary. Messages left queued by an interrupted earlier run are finished too: their tasks
 * are in the database, and this node runs them.
 */
@Component
public class SmsDemoRunner implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(SmsDemoRunner.class);

    private final SmsOutbox outbox;
    private final SmsDemoProperties properties;
    private final Errand errand;
    private volatile SmsDemoSummary summary;

    /** Creates the runner. */
    public SmsDemoRunner(SmsOutbox outbox, SmsDemoProperties properties, Errand errand) {
        this.outbox = outbox;
        this.properties = properties;
        this.errand = errand;
    }

    /** Runs the demo. */
    @Override
    public void run(ApplicationArguments args) throws InterruptedException {
        String batch = UUID.randomUUID().toString().substring(0, 8);
        long leftOver = outbox.queuedInAllBatches();
        long begin = System.nanoTime();
        outbox.queue(batch, properties.getMessages());
        log.info("Queued {} SMS messages as batch {} on {}: each row and its send-sms task committed together{}",
                properties.getMessages(), batch, errand.dialectName(),
                leftOver > 0 ? "; " + leftOver + " messages left queued by an earlier run will be sent too" : "");

        long deadline = begin + properties.getTimeout().toNanos();
        long queued;
        while ((queued = outbox.queuedInAllBatches()) > 0 && System.nanoTime() < deadline) {
            Thread.sleep(1000);
            Map<String, Long> counts = outbox.statusCounts(batch);
            log.info("Progress of batch {}: {} sent, {} failed, {} still queued", batch,
                    counts.getOrDefault(SmsOutbox.SENT, 0L), counts.getOrDefault(SmsOutbox.FAILED, 0L),
                    counts.getOrDefault(SmsOutbox.QUEUED, 0L));
        }
        summary = summarize(batch, Duration.ofNanos(System.nanoTime() - begin), queued == 0);
        print(summary);
    }

    /** The summary of the run, once {@link #run} has finished; {@code null} before. */
    public SmsDemoSummary summary() {
        return summary;
    }

    private SmsDemoSummary summarize(String batch, Duration elapsed, boolean complete) {
        List<SmsMessage> messages = outbox.messages(batch);
        long sent = messages.stream().filter(m -> m.status().equals(SmsOutbox.SENT)).count();
        List<SmsMessage> failures = messages.stream().filter(m -> m.status().equals(SmsOutbox.FAILED)).toList();
        long attempts = messages.stream().mapToLong(SmsMessage::attempts).sum();
        return new SmsDemoSummary(batch, messages.size(), sent, failures.size(), attempts, elapsed, complete, failures);
    }

    private void print(SmsDemoSummary s) {
        StringBuilder text = new StringBuilder("\n=== Errand SMS demo: summary of batch ").append(s.batch())
                .append(" ===\n");
        text.append(String.format("%d messages: %d sent, %d failed for good, in %.1f s%n", s.messages(), s.sent(),
                s.failed(), s.elapsed().toMillis() / 1000.0));
        text.append(String.format("%d attempts in all (%d retries); retry policy %s, at most %d attempts%n",
                s.attempts(), s.attempts() - s.messages(), policy(), properties.getMaxAttempts()));
        for (SmsMessage failed : s.failures()) {
            text.append(String.format("  failed: %s after %d attempts: %s%n", failed.recipient(), failed.attempts(),
                    failed.lastError()));
        }
        text.append(s.complete() ? "Every message reached a final state.\n"
                : "Timed out after " + properties.getTimeout() + " with messages still queued.\n");
        System.out.print(text);
        System.out.flush();
    }

    private String policy() {
        return properties.getRetry() == SmsDemoProperties.Retry.FIXED
                ? "fixed " + millis(properties.getRetryDelay())
                : "exponential from " + millis(properties.getRetryDelay()) + " up to "
                        + millis(properties.getRetryMaxDelay());
    }

    private static String millis(Duration duration) {
        return duration.toMillis() + " ms";
    }
}
