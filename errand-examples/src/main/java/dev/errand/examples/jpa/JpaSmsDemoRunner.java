package dev.errand.examples.jpa;

import dev.errand.jpa.EntityQueue;
import dev.errand.jpa.EntityQueues;
import dev.errand.jpa.state.QueueStatus;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Queues the run's messages once the application is ready, logs the queues' counts every second until no
 * message of any batch is pending or in progress, and prints a summary with an operator's SQL recipe. It
 * runs on a thread of its own; closing the application (Ctrl-C) ends it between two checks.
 */
@Component
public class JpaSmsDemoRunner {

    private static final Logger log = LoggerFactory.getLogger(JpaSmsDemoRunner.class);
    private static final List<QueueStatus> OPEN = List.of(QueueStatus.PENDING, QueueStatus.IN_PROGRESS);

    private final SmsProducer producer;
    private final SmsMessageRepository repository;
    private final EntityQueues queues;
    private final JdbcTemplate jdbc;
    private final JpaSmsDemoProperties properties;
    private final CompletableFuture<JpaSmsDemoSummary> summary = new CompletableFuture<>();
    private final CountDownLatch closing = new CountDownLatch(1);
    private volatile Thread thread;

    /** Creates the runner. */
    public JpaSmsDemoRunner(
            SmsProducer producer,
            SmsMessageRepository repository,
            EntityQueues queues,
            JdbcTemplate jdbc,
            JpaSmsDemoProperties properties) {
        this.producer = producer;
        this.repository = repository;
        this.queues = queues;
        this.jdbc = jdbc;
        this.properties = properties;
    }

    /** Starts the run on its own thread once the application is ready. */
    @EventListener(ApplicationReadyEvent.class)
    public synchronized void start() {
        if (thread == null) {
            thread = new Thread(this::runAndComplete, "jpa-sms-demo");
            thread.start();
        }
    }

    /** Ends a run still in progress when the application closes, before the queues stop. */
    @EventListener(ContextClosedEvent.class)
    public void stop() throws InterruptedException {
        closing.countDown();
        Thread running = thread;
        if (running != null && running != Thread.currentThread()) {
            running.join(Duration.ofSeconds(10).toMillis());
        }
    }

    /**
     * Waits for the run to end.
     *
     * @throws CancellationException if the application closed first
     * @throws ExecutionException if the run failed
     */
    public JpaSmsDemoSummary awaitSummary() throws InterruptedException, ExecutionException {
        return summary.get();
    }

    /** The summary once the run has ended; {@code null} before. */
    public JpaSmsDemoSummary summary() {
        return summary.getNow(null);
    }

    private void runAndComplete() {
        try {
            summary.complete(run());
        } catch (CancellationException e) {
            summary.cancel(false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            summary.cancel(false);
        } catch (RuntimeException | Error e) {
            log.error("The run failed", e);
            summary.completeExceptionally(e);
        }
    }

    private JpaSmsDemoSummary run() throws InterruptedException {
        EntityQueue<SmsMessage> send = queues.queue(JpaSmsDemoApplication.SEND_QUEUE, SmsMessage.class);
        EntityQueue<SmsMessage> crm = queues.queue(JpaSmsDemoApplication.CRM_QUEUE, SmsMessage.class);
        String batch = UUID.randomUUID().toString().substring(0, 8);
        long leftOver = repository.countOpen(OPEN);
        long begin = System.nanoTime();
        producer.queue(batch, properties.getMessages());
        log.info(
                "Saved {} SMS messages as batch {}: each row is its own queue item, pending in {}{}",
                properties.getMessages(),
                batch,
                send.name(),
                leftOver > 0 ? "; " + leftOver + " messages left open by an earlier run are processed too" : "");

        long deadline = begin + properties.getTimeout().toNanos();
        long open;
        while ((open = repository.countOpen(OPEN)) > 0 && System.nanoTime() < deadline) {
            if (closing.await(1, TimeUnit.SECONDS)) {
                log.info("The application is closing: the run ends here; open messages stay queued");
                throw new CancellationException("the application closed");
            }
            log.info(
                    "{}: {}   {}: {}",
                    send.name(),
                    counts(send.countByStatus()),
                    crm.name(),
                    counts(crm.countByStatus()));
        }
        JpaSmsDemoSummary result = new JpaSmsDemoSummary(
                batch,
                repository.findByBatchOrderById(batch),
                send.countByStatus(),
                crm.countByStatus(),
                Duration.ofNanos(System.nanoTime() - begin),
                open == 0);
        print(result);
        return result;
    }

    private void print(JpaSmsDemoSummary s) {
        StringBuilder text = new StringBuilder("\n=== Errand JPA SMS demo: summary of batch ")
                .append(s.batch())
                .append(" ===\n");
        List<SmsMessage> done = s.sent(QueueStatus.DONE);
        List<SmsMessage> failed = s.sent(QueueStatus.FAILED);
        int attempts =
                s.messages().stream().mapToInt(m -> m.sendState().attempts()).sum();
        text.append(String.format(
                "%d messages: %d sent, %d failed for good, in %.1f s%n",
                s.messages().size(), done.size(), failed.size(), s.elapsed().toMillis() / 1000.0));
        text.append(String.format(
                "%d send attempts (%d retries); fixed retry delay %d ms, at most %d attempts%n",
                attempts,
                attempts - s.messages().size(),
                properties.getRetryDelay().toMillis(),
                properties.getMaxAttempts()));
        for (SmsMessage message : failed) {
            text.append(String.format(
                    "  failed: %s after %d attempts: %s%n",
                    message.toAddress(),
                    message.sendState().attempts(),
                    message.sendState().lastError()));
        }
        text.append("All batches, sms-send: ")
                .append(counts(s.send()))
                .append("; crm-notify: ")
                .append(counts(s.crm()))
                .append('\n');
        text.append("Sent per sender (SELECT from_address, COUNT(*) FROM jpa_sms_message WHERE send_status = 'DONE'"
                + " GROUP BY from_address):\n");
        for (Map<String, Object> row : jdbc.queryForList(
                "SELECT from_address, COUNT(*) AS sent FROM jpa_sms_message"
                        + " WHERE send_status = 'DONE' AND batch = ? GROUP BY from_address ORDER BY from_address",
                s.batch())) {
            text.append("  ")
                    .append(row.get("from_address"))
                    .append(": ")
                    .append(row.get("sent"))
                    .append('\n');
        }
        text.append(
                s.complete()
                        ? "Every message reached a final state.\n"
                        : "Timed out after " + properties.getTimeout() + " with messages still open.\n");
        System.out.print(text);
        System.out.flush();
    }

    private static String counts(Map<QueueStatus, Long> counts) {
        return counts.get(QueueStatus.DONE) + " done, " + counts.get(QueueStatus.FAILED) + " failed, "
                + counts.get(QueueStatus.PENDING) + " pending, " + counts.get(QueueStatus.IN_PROGRESS)
                + " in progress";
    }
}
