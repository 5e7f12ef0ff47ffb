package dev.errand.examples.sms;

import dev.errand.Errand;
import dev.errand.admin.TaskQuery;
import dev.errand.task.TaskState;
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
import org.springframework.stereotype.Component;

/**
 * Queues the run's messages, logs progress every second until no message of any batch is still queued,
 * and prints a summary. Messages left queued by an interrupted earlier run are finished too: their tasks
 * are in the database, and this node runs them.
 *
 * <p>The run starts once the application is ready, on a thread of its own, so that the application is
 * up (web server, {@code /actuator/health} 200 UP) while the messages are sent. An
 * {@code ApplicationRunner} would hold start-up, and with it readiness, back for the whole run.
 * {@link SmsDemoApplication#main} waits for {@link #awaitSummary()}. When the application closes
 * before the run has ended (Ctrl-C), the run is interrupted first, then Errand stops, then the pool.
 */
@Component
public class SmsDemoRunner {

    private static final Logger log = LoggerFactory.getLogger(SmsDemoRunner.class);

    private final SmsOutbox outbox;
    private final SmsDemoProperties properties;
    private final Errand errand;
    private final DeliveryReports reports;
    private final CompletableFuture<SmsDemoSummary> summary = new CompletableFuture<>();
    private final CountDownLatch closing = new CountDownLatch(1);
    private volatile Thread thread;

    /** Creates the runner. */
    public SmsDemoRunner(SmsOutbox outbox, SmsDemoProperties properties, Errand errand, DeliveryReports reports) {
        this.outbox = outbox;
        this.properties = properties;
        this.errand = errand;
        this.reports = reports;
    }

    /** Starts the run on its own thread once the application is ready. */
    @EventListener(ApplicationReadyEvent.class)
    public synchronized void start() {
        if (thread != null) {
            return;
        }
        thread = new Thread(this::runAndComplete, "sms-demo");
        thread.start();
    }

    /**
     * Ends a run still in progress when the application closes, before Errand and the pool stop. The run
     * stops between two progress checks; it is not interrupted, because an interrupt in the middle of a
     * query can close an embedded database's file.
     */
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
     * @return the summary
     * @throws CancellationException if the application closed before the run ended
     * @throws ExecutionException if the run failed
     */
    public SmsDemoSummary awaitSummary() throws InterruptedException, ExecutionException {
        return summary.get();
    }

    /** The summary of the run once it has ended; {@code null} before. */
    public SmsDemoSummary summary() {
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

    private SmsDemoSummary run() throws InterruptedException {
        String batch = UUID.randomUUID().toString().substring(0, 8);
        long leftOver = outbox.queuedInAllBatches();
        long begin = System.nanoTime();
        outbox.queue(batch, properties.getMessages());
        log.info(
                "Queued {} SMS messages as batch {} on {}: each row and its send-sms task committed together{}",
                properties.getMessages(),
                batch,
                errand.dialectName(),
                leftOver > 0 ? "; " + leftOver + " messages left queued by an earlier run will be sent too" : "");

        long deadline = begin + properties.getTimeout().toNanos();
        long queued;
        // Done when no message is queued and no receipt task of any run waits for its delivery report.
        while (((queued = outbox.queuedInAllBatches()) > 0 || activeReceipts() > 0) && System.nanoTime() < deadline) {
            if (closing.await(1, TimeUnit.SECONDS)) {
                log.info(
                        "The application is closing: batch {} ends here; its messages still queued stay queued"
                                + " for the next run",
                        batch);
                throw new CancellationException("the application closed");
            }
            Map<String, Long> counts = outbox.statusCounts(batch);
            log.info(
                    "Progress of batch {}: {} sent, {} failed, {} still queued; {} waiting for a delivery report",
                    batch,
                    counts.getOrDefault(SmsOutbox.SENT, 0L),
                    counts.getOrDefault(SmsOutbox.FAILED, 0L),
                    counts.getOrDefault(SmsOutbox.QUEUED, 0L),
                    outbox.awaitingReceipt(batch));
        }
        SmsDemoSummary result =
                summarize(batch, Duration.ofNanos(System.nanoTime() - begin), queued == 0 && activeReceipts() == 0);
        print(result);
        return result;
    }

    /** Receipt tasks still waiting for a report or about to record one, and delivery reports not yet recorded. */
    private long activeReceipts() {
        long active = 0;
        for (TaskState state : List.of(TaskState.WAITING, TaskState.PENDING, TaskState.RUNNING)) {
            for (String kind : List.of(ReceiptRecorder.KIND_NAME, DeliveryReports.KIND_NAME)) {
                active += errand.admin()
                        .count(TaskQuery.builder().kind(kind).state(state).build());
            }
        }
        return active;
    }

    private SmsDemoSummary summarize(String batch, Duration elapsed, boolean complete) {
        List<SmsMessage> messages = outbox.messages(batch);
        long sent =
                messages.stream().filter(m -> m.status().equals(SmsOutbox.SENT)).count();
        List<SmsMessage> failures = messages.stream()
                .filter(m -> m.status().equals(SmsOutbox.FAILED))
                .toList();
        long attempts = messages.stream().mapToLong(SmsMessage::attempts).sum();
        return new SmsDemoSummary(batch, messages.size(), sent, failures.size(), attempts, elapsed, complete, failures);
    }

    private void print(SmsDemoSummary s) {
        StringBuilder text = new StringBuilder("\n=== Errand SMS demo: summary of batch ")
                .append(s.batch())
                .append(" ===\n");
        text.append(String.format(
                "%d messages: %d sent, %d failed for good, in %.1f s%n",
                s.messages(), s.sent(), s.failed(), s.elapsed().toMillis() / 1000.0));
        text.append(String.format(
                "%d attempts in all (%d retries); retry policy %s, at most %d attempts%n",
                s.attempts(), s.attempts() - s.messages(), policy(), properties.getMaxAttempts()));
        Map<String, Long> receipts = outbox.receiptCounts(s.batch());
        text.append(String.format(
                "delivery receipts: %d delivered, %d unconfirmed (no report within %s: the condition expired);"
                        + " %d reports came before their receipt task and waited as premature events%n",
                receipts.getOrDefault(ReceiptRecorder.DELIVERED, 0L),
                receipts.getOrDefault(ReceiptRecorder.UNCONFIRMED, 0L),
                millis(properties.getReceiptTimeout()),
                reports.premature()));
        for (SmsMessage failed : s.failures()) {
            text.append(String.format(
                    "  failed: %s after %d attempts: %s%n", failed.recipient(), failed.attempts(), failed.lastError()));
        }
        text.append(
                s.complete()
                        ? "Every message reached a final state.\n"
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
