package dev.errand.examples.jpa;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** The JPA SMS demo's {@code jpa-sms.*} settings. */
@ConfigurationProperties("jpa-sms")
public class JpaSmsDemoProperties {

    private int messages = 40;
    private double failureRate = 0.3;
    private Duration sendTime = Duration.ofMillis(30);
    private int maxAttempts = 3;
    private Duration retryDelay = Duration.ofMillis(300);
    private Duration timeout = Duration.ofMinutes(2);
    private boolean exitWhenDone = true;

    /** How many messages the run queues. */
    public int getMessages() {
        return messages;
    }

    /** Sets how many messages the run queues. */
    public void setMessages(int messages) {
        this.messages = messages;
    }

    /** The share of sends that fail at random, 0 to 1. */
    public double getFailureRate() {
        return failureRate;
    }

    /** Sets the share of sends that fail at random. */
    public void setFailureRate(double failureRate) {
        this.failureRate = failureRate;
    }

    /** How long a send takes on average. */
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

    /** The fixed delay before each retry. */
    public Duration getRetryDelay() {
        return retryDelay;
    }

    /** Sets the fixed delay before each retry. */
    public void setRetryDelay(Duration retryDelay) {
        this.retryDelay = retryDelay;
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
}
