package dev.errand.jpa.spring.autoconfigure;

import dev.errand.config.Setting;
import dev.errand.jpa.EntityQueuesBuilder;
import dev.errand.jpa.queue.EntityQueueDefinition;
import dev.errand.jpa.queue.EntityQueueSettings;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * The {@code errand.jpa.*} properties of entity queues. Defaults and ranges come from
 * {@link EntityQueueSettings}, the table the builders check against. The class validates itself, so an
 * invalid value stops start-up with a message that names the property.
 */
@ConfigurationProperties("errand.jpa")
public class ErrandJpaProperties implements Validator {

    private static final String PREFIX = "errand.jpa.";

    /** Whether entity queues are auto-configured. */
    private boolean enabled = true;

    /** Whether this node processes items; with false it only serves the helpers (counts, reset). */
    private boolean processingEnabled = true;

    /** This node's id, stored as the lease owner of the items it claims; generated when unset. */
    private String nodeId;

    /** How long a claimed item belongs to this node before another node may rescue it: 1s to 24h. */
    private Duration leaseDuration = EntityQueueSettings.LEASE_DURATION.defaultValue();

    /** How often this node looks for items whose lease expired: 100ms to 1h. */
    private Duration rescueInterval = EntityQueueSettings.RESCUE_INTERVAL.defaultValue();

    /** How long stopping waits for the items being processed: 0s to 1h. */
    private Duration shutdownTimeout = EntityQueueSettings.SHUTDOWN_TIMEOUT.defaultValue();

    /** Whether start-up warns when a queue's table lacks the index on (status, next_attempt_at). */
    private boolean indexCheck = true;

    /** Per-queue overrides of what the queue's definition sets, by queue name. */
    private Map<String, Queue> queues = new LinkedHashMap<>();

    /** Whether entity queues are auto-configured. */
    public boolean isEnabled() {
        return enabled;
    }

    /** Sets whether entity queues are auto-configured. */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /** Whether this node processes items. */
    public boolean isProcessingEnabled() {
        return processingEnabled;
    }

    /** Sets whether this node processes items. */
    public void setProcessingEnabled(boolean processingEnabled) {
        this.processingEnabled = processingEnabled;
    }

    /** This node's id, or {@code null} for the generated default. */
    public String getNodeId() {
        return nodeId;
    }

    /** Sets this node's id. */
    public void setNodeId(String nodeId) {
        this.nodeId = nodeId;
    }

    /** The lease of a claim. */
    public Duration getLeaseDuration() {
        return leaseDuration;
    }

    /** Sets the lease of a claim. */
    public void setLeaseDuration(Duration leaseDuration) {
        this.leaseDuration = leaseDuration;
    }

    /** How often expired leases are looked for. */
    public Duration getRescueInterval() {
        return rescueInterval;
    }

    /** Sets how often expired leases are looked for. */
    public void setRescueInterval(Duration rescueInterval) {
        this.rescueInterval = rescueInterval;
    }

    /** How long stopping waits for running items. */
    public Duration getShutdownTimeout() {
        return shutdownTimeout;
    }

    /** Sets how long stopping waits for running items. */
    public void setShutdownTimeout(Duration shutdownTimeout) {
        this.shutdownTimeout = shutdownTimeout;
    }

    /** Whether start-up checks for the recommended index. */
    public boolean isIndexCheck() {
        return indexCheck;
    }

    /** Sets whether start-up checks for the recommended index. */
    public void setIndexCheck(boolean indexCheck) {
        this.indexCheck = indexCheck;
    }

    /** The per-queue overrides. */
    public Map<String, Queue> getQueues() {
        return queues;
    }

    /** Sets the per-queue overrides. */
    public void setQueues(Map<String, Queue> queues) {
        this.queues = queues;
    }

    /** Copies the node's settings onto {@code builder}. Binding has validated them. */
    public void applyTo(EntityQueuesBuilder builder) {
        if (nodeId != null) {
            builder.nodeId(nodeId);
        }
        builder.leaseDuration(leaseDuration)
                .rescueInterval(rescueInterval)
                .shutdownTimeout(shutdownTimeout)
                .processingEnabled(processingEnabled)
                .indexCheck(indexCheck);
    }

    /**
     * A definition with this queue's overrides applied.
     *
     * @return {@code definition} itself when nothing is overridden
     */
    public <E> EntityQueueDefinition<E> override(EntityQueueDefinition<E> definition) {
        Queue queue = queues.get(definition.name());
        if (queue == null) {
            return definition;
        }
        EntityQueueDefinition.Builder<E> builder = definition.toBuilder();
        if (queue.concurrency != null) {
            builder.concurrency(queue.concurrency);
        }
        if (queue.batchSize != null) {
            builder.batchSize(queue.batchSize);
        }
        if (queue.pollInterval != null) {
            builder.pollInterval(queue.pollInterval);
        }
        if (queue.maxAttempts != null) {
            builder.maxAttempts(queue.maxAttempts);
        }
        return builder.build();
    }

    /** Validates {@code ErrandJpaProperties} only. */
    @Override
    public boolean supports(Class<?> type) {
        return ErrandJpaProperties.class.isAssignableFrom(type);
    }

    /** Checks every value against its range; each error names the property. */
    @Override
    public void validate(Object target, Errors errors) {
        ErrandJpaProperties p = (ErrandJpaProperties) target;
        if (p.nodeId != null && (p.nodeId.isBlank() || p.nodeId.length() > 200)) {
            errors.rejectValue(
                    "nodeId",
                    "errand.jpa.invalid",
                    "errand.jpa.node-id must be 1 to 200 non-blank characters, got \"" + p.nodeId + "\"");
        }
        check(errors, "leaseDuration", EntityQueueSettings.LEASE_DURATION, p.leaseDuration, PREFIX);
        check(errors, "rescueInterval", EntityQueueSettings.RESCUE_INTERVAL, p.rescueInterval, PREFIX);
        check(errors, "shutdownTimeout", EntityQueueSettings.SHUTDOWN_TIMEOUT, p.shutdownTimeout, PREFIX);
        p.queues.forEach((name, queue) -> {
            String queuePrefix = PREFIX + "queues." + name + ".";
            if (queue.concurrency != null) {
                check(errors, null, EntityQueueSettings.CONCURRENCY, queue.concurrency, queuePrefix);
            }
            if (queue.batchSize != null) {
                check(errors, null, EntityQueueSettings.BATCH_SIZE, queue.batchSize, queuePrefix);
            }
            if (queue.pollInterval != null) {
                check(errors, null, EntityQueueSettings.POLL_INTERVAL, queue.pollInterval, queuePrefix);
            }
            if (queue.maxAttempts != null) {
                check(errors, null, EntityQueueSettings.MAX_ATTEMPTS, queue.maxAttempts, queuePrefix);
            }
        });
    }

    private static <T extends Comparable<? super T>> void check(
            Errors errors, String field, Setting<T> setting, T value, String prefix) {
        setting.problem(prefix + setting.property(), value).ifPresent(message -> {
            if (field == null) {
                errors.reject("errand.jpa.invalid", message);
            } else {
                errors.rejectValue(field, "errand.jpa.invalid", message);
            }
        });
    }

    /** What {@code errand.jpa.queues.<name>.*} overrides of a queue's definition; unset keeps the definition's. */
    public static class Queue {

        /** How many items of the queue this node processes at once: 1 to 1000. */
        private Integer concurrency;

        /** The most items one claim takes: 1 to 10000. */
        private Integer batchSize;

        /** How long an idle queue waits before it looks for due items again: 10ms to 1h. */
        private Duration pollInterval;

        /** The most attempts an item gets: 1 to 1000. */
        private Integer maxAttempts;

        /** The concurrency, or {@code null} to keep the definition's. */
        public Integer getConcurrency() {
            return concurrency;
        }

        /** Sets the concurrency. */
        public void setConcurrency(Integer concurrency) {
            this.concurrency = concurrency;
        }

        /** The batch size, or {@code null} to keep the definition's. */
        public Integer getBatchSize() {
            return batchSize;
        }

        /** Sets the batch size. */
        public void setBatchSize(Integer batchSize) {
            this.batchSize = batchSize;
        }

        /** The poll interval, or {@code null} to keep the definition's. */
        public Duration getPollInterval() {
            return pollInterval;
        }

        /** Sets the poll interval. */
        public void setPollInterval(Duration pollInterval) {
            this.pollInterval = pollInterval;
        }

        /** The most attempts, or {@code null} to keep the definition's. */
        public Integer getMaxAttempts() {
            return maxAttempts;
        }

        /** Sets the most attempts. */
        public void setMaxAttempts(Integer maxAttempts) {
            this.maxAttempts = maxAttempts;
        }
    }
}
