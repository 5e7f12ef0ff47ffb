package dev.errand.examples.sms;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** The demo's {@code sms.*} settings. */
@ConfigurationProperties("sms")
public class SmsDemoProperties {

    /** How a failed send is retried. */
    public enum Retry {
        /** The same delay after every failure. */
        FIXED,
        /** A delay that doubles after each failure, up to a cap. */
        EXPONENTIAL
    }

    private int messages = 40;
    private double failureRate = 0.4;
    private Duration sendTime = Duration.ofMillis(35);
    private int maxAttempts = 4;
    private Retry retry = Retry.EXPONENTIAL;
    private Duration retryDelay = Duration.ofMillis(200);
    private Duration retryMaxDelay = Duration.ofSeconds(2);
    private Duration timeout = Duration.ofMinutes(2);
    private boolean exitWhenDone = true;
    private double deliveryReportRate = 0.9;
    private Duration deliveryReportDelay = Duration.ofMillis(400);
    private Duration receiptTimeout = Duration.ofSeconds(2);

    /** How many messages the run queues. */
    public int getMessages() {
        return messages;
    }

    /** Sets how many messages the run queues. */
    public void setMessages(int messages) {
        this.messages = messages;
    }

    /** The share of sends that the flaky gateway fails at random, 0 to 1. */
    public double getFailureRate() {
        return failureRate;
    }

    /** Sets the share of sends that fail at random. */
    public void setFailureRate(double failureRate) {
        this.failureRate = failureRate;
    }

    /** How long a send takes on average: each takes between half and one and a half of it, at random. */
    public Duration getSendTime() {
        return sendTime;
    }

    /** Sets how long a send takes on average. */
    public void setSendTime(Duration sendTime) {
        this.sendTime = sendTime;
    }

    /** The most attempts per message. */
    public int getMaxAttempts() {
        return maxAttempts;
    }

    /** Sets the most attempts per message. */
    public void setMaxAttempts(int maxAttempts) {
        this.maxAttempts = maxAttempts;
    }

    /** The retry policy. */
    public Retry getRetry() {
        return retry;
    }

    /** Sets the retry policy. */
    public void setRetry(Retry retry) {
        this.retry = retry;
    }

    /** The fixed delay, or the first delay of the exponential policy. */
    public Duration getRetryDelay() {
        return retryDelay;
    }

    /** Sets the fixed or first delay. */
    public void setRetryDelay(Duration retryDelay) {
        this.retryDelay = retryDelay;
    }

    /** The longest delay of the exponential policy. */
    public Duration getRetryMaxDelay() {
        return retryMaxDelay;
    }

    /** Sets the longest delay of the exponential policy. */
    public void setRetryMaxDelay(Duration retryMaxDelay) {
        this.retryMaxDelay = retryMaxDelay;
    }

    /** How long the demo waits for every message to reach a final state. */
    public Duration getTimeout() {
        return timeout;
    }

    /** Sets how long the demo waits. */
    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }

    /** Whether the application exits after the summary. */
    public boolean isExitWhenDone() {
        return exitWhenDone;
    }

    /** Sets whether the application exits after the summary. */
    public void setExitWhenDone(boolean exitWhenDone) {
        this.exitWhenDone = exitWhenDone;
    }

    /** The share of sent messages whose delivery the gateway reports, 0 to 1; the others' receipts expire. */
    public double getDeliveryReportRate() {
        return deliveryReportRate;
    }

    /** Sets the share of sent messages whose delivery the gateway reports. */
    public void setDeliveryReportRate(double deliveryReportRate) {
        this.deliveryReportRate = deliveryReportRate;
    }

    /** The longest a delivery report takes to arrive after a send (each takes between 0 and this). */
    public Duration getDeliveryReportDelay() {
        return deliveryReportDelay;
    }

    /** Sets the longest a delivery report takes to arrive. */
    public void setDeliveryReportDelay(Duration deliveryReportDelay) {
        this.deliveryReportDelay = deliveryReportDelay;
    }

    /** How long a receipt task waits for its delivery report before it expires. */
    public Duration getReceiptTimeout() {
        return receiptTimeout;
    }

    /** Sets how long a receipt task waits for its delivery report. */
    public void setReceiptTimeout(Duration receiptTimeout) {
        this.receiptTimeout = receiptTimeout;
    }
}
