package dev.errand.spring.autoconfigure;

import dev.errand.retry.RetryPolicy;
import dev.errand.spring.ErrandTask;
import dev.errand.task.TaskDefinition;
import java.time.Duration;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.env.Environment;

/**
 * Applies the options of an {@link ErrandTask} annotation (mode, attempts, retry, lease, timeout, lease
 * expiry, flow limits) to a kind's builder, the same way for a handler class and a handler method.
 */
final class TaskAnnotationOptions {

    private final Environment environment;

    TaskAnnotationOptions(Environment environment) {
        this.environment = environment;
    }

    /**
     * Sets the annotation's options on {@code builder}.
     *
     * @throws IllegalArgumentException if an option is invalid; the message names the attribute
     */
    void apply(ErrandTask annotation, TaskDefinition.Builder<?> builder) {
        apply(annotation, builder, null);
    }

    /**
     * Sets the annotation's options on {@code builder}, with the kind's {@code errand.flow.kinds.<kind>.*}
     * properties over its flow options: a limit in the properties replaces the annotation's limits, and {@code
     * limit-key-from} replaces {@code limitKeyFrom}.
     *
     * @param flow the kind's flow properties, or null
     * @throws IllegalArgumentException if an option is invalid; the message names the attribute or property
     */
    void apply(ErrandTask annotation, TaskDefinition.Builder<?> builder, ErrandProperties.FlowKind flow) {
        builder.mode(annotation.mode()).onLeaseExpired(annotation.onLeaseExpired());
        if (annotation.maxAttempts() != 0) {
            builder.maxAttempts(annotation.maxAttempts());
        }
        RetryPolicy policy = retryPolicy(annotation);
        if (policy != null) {
            builder.retryPolicy(policy);
        }
        Duration lease = duration("leaseDuration", annotation.leaseDuration(), false);
        if (lease != null) {
            builder.leaseDuration(lease);
        }
        Duration timeout = duration("executionTimeout", annotation.executionTimeout(), false);
        if (timeout != null) {
            builder.executionTimeout(timeout);
        }
        if (annotation.groupCommit() != 1) {
            builder.groupCommit(annotation.groupCommit());
        }
        if (flow != null && flow.hasLimit()) {
            flow.applyLimits(builder);
        } else {
            applyFlowLimits(annotation, builder);
        }
        if (flow != null && flow.getLimitKeyFrom() != null) {
            builder.limitKeyFrom(flow.getLimitKeyFrom());
        } else if (!annotation.limitKeyFrom().isEmpty()) {
            builder.limitKeyFrom(environment.resolveRequiredPlaceholders(annotation.limitKeyFrom()));
        }
    }

    private void applyFlowLimits(ErrandTask annotation, TaskDefinition.Builder<?> builder) {
        if (annotation.concurrencyLimit() != 0) {
            builder.concurrencyLimit(annotation.concurrencyLimit());
        }
        if (annotation.concurrencyLimitPerKey() != 0) {
            builder.concurrencyLimitPerKey(annotation.concurrencyLimitPerKey());
        }
        boolean rated = annotation.rateLimit() != 0 || annotation.rateLimitPerKey() != 0;
        Duration period = duration("ratePeriod", annotation.ratePeriod(), rated);
        if (annotation.rateLimit() != 0) {
            builder.rateLimit(annotation.rateLimit(), period);
        }
        if (annotation.rateLimitPerKey() != 0) {
            builder.rateLimitPerKey(annotation.rateLimitPerKey(), period);
        }
        if (!rated && period != null) {
            throw new IllegalArgumentException(
                    "ratePeriod needs rateLimit or rateLimitPerKey, for example rateLimit = 100");
        }
    }

    private RetryPolicy retryPolicy(ErrandTask annotation) {
        boolean delayed =
                annotation.retry() == ErrandTask.Retry.FIXED || annotation.retry() == ErrandTask.Retry.EXPONENTIAL;
        Duration delay = duration("retryDelay", annotation.retryDelay(), delayed);
        Duration maxDelay = duration(
                "retryMaxDelay", annotation.retryMaxDelay(), annotation.retry() == ErrandTask.Retry.EXPONENTIAL);
        if (annotation.retry() != ErrandTask.Retry.DELAYS && annotation.retryDelays().length > 0) {
            throw new IllegalArgumentException("retryDelays needs retry = DELAYS");
        }
        return switch (annotation.retry()) {
            case DEFAULT -> {
                if (delay != null || maxDelay != null) {
                    throw new IllegalArgumentException(
                            "retryDelay and retryMaxDelay need retry = FIXED or EXPONENTIAL");
                }
                yield null;
            }
            case DELAYS -> {
                if (delay != null || maxDelay != null) {
                    throw new IllegalArgumentException(
                            "retry = DELAYS takes retryDelays, not retryDelay or" + " retryMaxDelay");
                }
                String[] texts = annotation.retryDelays();
                if (texts.length == 0) {
                    throw new IllegalArgumentException(
                            "retry = DELAYS needs retryDelays, for example" + " {\"10s\", \"1m\", \"10m\"}");
                }
                Duration[] delays = new Duration[texts.length];
                for (int i = 0; i < texts.length; i++) {
                    delays[i] = duration("retryDelays[" + i + "]", texts[i], true);
                }
                yield RetryPolicy.delays(delays);
            }
            case FIXED -> {
                if (maxDelay != null) {
                    throw new IllegalArgumentException("retryMaxDelay applies to retry = EXPONENTIAL only");
                }
                yield RetryPolicy.fixed(delay);
            }
            case EXPONENTIAL -> RetryPolicy.exponential(delay, maxDelay);
        };
    }

    private Duration duration(String attribute, String text, boolean required) {
        String resolved = environment.resolveRequiredPlaceholders(text).trim();
        if (resolved.isEmpty()) {
            if (required) {
                throw new IllegalArgumentException(attribute + " is required for this "
                        + (attribute.equals("ratePeriod") ? "rate limit" : "retry policy") + ", for example \"30s\"");
            }
            return null;
        }
        try {
            return DurationStyle.detectAndParse(resolved);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    attribute + " \"" + resolved
                            + "\" is not a duration; write it as \"500ms\", \"30s\", \"5m\" or \"PT30S\"",
                    e);
        }
    }
}
