package dev.errand.examples.sms;

import dev.errand.enqueue.TaskRequest;
import dev.errand.event.Triggered;
import dev.errand.spring.ErrandClient;
import dev.errand.spring.ErrandTask;
import dev.errand.task.TaskContext;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The gateway's delivery reports, as a webhook would receive them: some time after a send, the gateway
 * reports that the message reached the phone. The webhook only enqueues a {@code sms-delivery-report} task,
 * so that the report is durable as soon as it is answered; that task's handler is the method
 * {@link #record}, an {@code @ErrandTask} method of this plain bean, and triggers the event
 * {@code sms-delivered:<message id>} that the message's receipt task waits for. A report can arrive before
 * the sender's transaction has committed its receipt task: the trigger then waits for that commit and
 * releases the task, or, if the task is not enqueued yet, is kept as a premature event that the task
 * consumes when it is. Some reports never come; those receipt tasks expire.
 */
@Component
public class DeliveryReports implements AutoCloseable {

    /** The kind of the tasks that record a delivery report. */
    public static final String KIND_NAME = "sms-delivery-report";

    /** The queue of those tasks, declared in {@code application.properties}. */
    public static final String QUEUE = "sms-reports";

    /**
     * The payload of a {@code sms-delivery-report} task.
     *
     * @param messageId the delivered message's id
     */
    public record DeliveryReport(String messageId) {}

    private static final Logger log = LoggerFactory.getLogger(DeliveryReports.class);

    private final ErrandClient errand;
    private final SmsDemoProperties properties;
    private final ScheduledExecutorService gateway = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "sms-gateway-reports");
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicLong premature = new AtomicLong();

    /** Creates the report channel. */
    public DeliveryReports(ErrandClient errand, SmsDemoProperties properties) {
        this.errand = errand;
        this.properties = properties;
    }

    /** The name of the event that reports the delivery of a message. */
    public static String deliveredEvent(String messageId) {
        return "sms-delivered:" + messageId;
    }

    /** Called by the gateway for each accepted message: schedules its delivery report, or loses it. */
    public void accepted(String messageId) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        if (random.nextDouble() >= properties.getDeliveryReportRate()) {
            return; // The operator's network never reports this one.
        }
        long delay = random.nextLong(properties.getDeliveryReportDelay().toMillis() + 1);
        gateway.schedule(() -> report(messageId), delay, TimeUnit.MILLISECONDS);
    }

    /** How many reports arrived before their receipt task was enqueued. */
    public long premature() {
        return premature.get();
    }

    /** The webhook: stores the report as a task, which {@link #record} runs. */
    private void report(String messageId) {
        try {
            // A queue of its own: a report must not wait behind the sends for a worker, or its receipt expires.
            errand.enqueue(TaskRequest.builder(KIND_NAME, new DeliveryReport(messageId))
                    .queue(QUEUE)
                    .build());
        } catch (RuntimeException e) {
            // A webhook would answer 500 and the gateway would report again; here the receipt expires.
            log.warn("Delivery report of message {} could not be recorded: {}", messageId, e.getMessage());
        }
    }

    /**
     * Records one delivery report: releases the message's receipt task, in this task's transaction. A
     * handler method: the payload and the context are its parameters, and a failed trigger is retried.
     */
    @ErrandTask(kind = KIND_NAME, maxAttempts = 5, retry = ErrandTask.Retry.FIXED, retryDelay = "200ms")
    public void record(DeliveryReport report, TaskContext context) {
        Triggered triggered = errand.triggerEvent(deliveredEvent(report.messageId()));
        if (triggered.storedAsPremature()) {
            premature.incrementAndGet();
            context.log("the report came before the receipt task of message " + report.messageId());
        }
    }

    /** Stops reporting when the application closes. */
    @Override
    public void close() {
        gateway.shutdownNow();
    }
}
