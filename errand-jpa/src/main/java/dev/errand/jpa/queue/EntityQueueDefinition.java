package dev.errand.jpa.queue;

import dev.errand.config.Names;
import dev.errand.retry.DelayList;
import dev.errand.retry.RetryPolicy;
import java.time.Duration;

/**
 * One entity queue: which entity type, which of its {@link QueueState} attributes, what processes an item,
 * and how. Immutable; build it with {@link #builder(Class, String, EntityProcessor)}.
 *
 * <pre>{@code
 * EntityQueueDefinition<SmsMessage> sending = EntityQueueDefinition
 *         .builder(SmsMessage.class, "sendState", (sms, context) -> gateway.send(sms))
 *         .name("sms-send")
 *         .concurrency(4)
 *         .retryPolicy(RetryPolicy.exponential(Duration.ofSeconds(10), Duration.ofMinutes(10)))
 *         .maxAttempts(5)
 *         .onFinalFailure((sms, failure) -> sms.markUndeliverable(failure.error()))
 *         .build();
 * }</pre>
 *
 * @param <E> the entity type
 */
public final class EntityQueueDefinition<E> {

    /** The longest queue name accepted. */
    public static final int MAX_NAME_LENGTH = 100;

    private final Builder<E> values;

    private EntityQueueDefinition(Builder<E> builder) {
        this.values = builder.copy();
    }

    /**
     * Starts a definition.
     *
     * @param entityType the entity class that embeds the state; the root of its inheritance hierarchy
     * @param stateAttribute the name of its {@link QueueState} attribute, such as {@code sendState}
     * @param processor what processes one item
     * @throws IllegalArgumentException if an argument is null or the attribute name is blank
     */
    public static <E> Builder<E> builder(Class<E> entityType, String stateAttribute, EntityProcessor<E> processor) {
        return new Builder<>(entityType, stateAttribute, processor);
    }

    /** A builder that starts from this definition's values, for example to override some from properties. */
    public Builder<E> toBuilder() {
        return values.copy();
    }

    /** The queue's name: the one set, or {@code EntityName.stateAttribute}. */
    public String name() {
        return values.name != null ? values.name : values.entityType.getSimpleName() + "." + values.stateAttribute;
    }

    /** The entity class. */
    public Class<E> entityType() {
        return values.entityType;
    }

    /** The name of the entity's {@link QueueState} attribute. */
    public String stateAttribute() {
        return values.stateAttribute;
    }

    /** What processes one item. */
    public EntityProcessor<E> processor() {
        return values.processor;
    }

    /** How many items one node processes at once. */
    public int concurrency() {
        return values.concurrency;
    }

    /** The most items one claim takes. */
    public int batchSize() {
        return values.batchSize;
    }

    /** How long an idle queue waits before it looks for due items again. */
    public Duration pollInterval() {
        return values.pollInterval;
    }

    /** The delay before each retry. */
    public RetryPolicy retryPolicy() {
        return values.retryPolicy;
    }

    /** The most attempts an item gets. */
    public int maxAttempts() {
        return values.maxAttempts != null ? values.maxAttempts : defaultMaxAttempts(values.retryPolicy);
    }

    /** What runs when an item fails for good, or {@code null}. */
    public FinalFailureCallback<E> finalFailureCallback() {
        return values.onFinalFailure;
    }

    private static int defaultMaxAttempts(RetryPolicy policy) {
        return policy instanceof DelayList list
                ? list.attemptsCovered()
                : EntityQueueSettings.MAX_ATTEMPTS.defaultValue();
    }

    @Override
    public String toString() {
        return "EntityQueueDefinition[" + name() + ": " + values.entityType.getName() + "." + values.stateAttribute
                + ", concurrency=" + concurrency() + ", batchSize=" + batchSize() + ", pollInterval=" + pollInterval()
                + ", maxAttempts=" + maxAttempts() + ", retryPolicy=" + retryPolicy() + "]";
    }

    /**
     * Collects a definition's values; every setter checks its argument at once.
     *
     * @param <E> the entity type
     */
    public static final class Builder<E> {

        private final Class<E> entityType;
        private final String stateAttribute;
        private final EntityProcessor<E> processor;
        private String name;
        private int concurrency = EntityQueueSettings.CONCURRENCY.defaultValue();
        private int batchSize = EntityQueueSettings.BATCH_SIZE.defaultValue();
        private Duration pollInterval = EntityQueueSettings.POLL_INTERVAL.defaultValue();
        private RetryPolicy retryPolicy = RetryPolicy.exponential(Duration.ofSeconds(1), Duration.ofHours(1));
        private Integer maxAttempts;
        private FinalFailureCallback<E> onFinalFailure;

        private Builder(Class<E> entityType, String stateAttribute, EntityProcessor<E> processor) {
            if (entityType == null) {
                throw new IllegalArgumentException("The entity type must not be null; pass the @Entity class that"
                        + " embeds the QueueState, for example SmsMessage.class");
            }
            if (stateAttribute == null || stateAttribute.isBlank()) {
                throw new IllegalArgumentException("The state attribute must name the entity's QueueState field,"
                        + " for example \"sendState\"; got " + (stateAttribute == null ? "null" : "a blank name"));
            }
            if (processor == null) {
                throw new IllegalArgumentException("The processor must not be null; pass what processes one item,"
                        + " for example (sms, context) -> gateway.send(sms)");
            }
            this.entityType = entityType;
            this.stateAttribute = stateAttribute.strip();
            this.processor = processor;
        }

        /**
         * Names the queue, for logs, {@code errand.jpa.queues.<name>.*} properties and look-ups; default
         * {@code EntityName.stateAttribute}.
         *
         * @throws IllegalArgumentException if the name is blank, too long or holds control characters
         */
        public Builder<E> name(String name) {
            this.name = Names.require("Entity queue name", name, MAX_NAME_LENGTH);
            return this;
        }

        /**
         * How many items this node processes at once, each on a worker thread of its own (1 to 1000, default
         * 4).
         *
         * @throws IllegalArgumentException if out of range
         */
        public Builder<E> concurrency(int concurrency) {
            this.concurrency = EntityQueueSettings.CONCURRENCY.require(concurrency);
            return this;
        }

        /**
         * The most items one claim takes, and the most claimed items a node keeps waiting for its workers
         * (1 to 10,000, default 100). Keep the lease above the time a batch waits: about
         * {@code batchSize / concurrency} processing times.
         *
         * @throws IllegalArgumentException if out of range
         */
        public Builder<E> batchSize(int batchSize) {
            this.batchSize = EntityQueueSettings.BATCH_SIZE.require(batchSize);
            return this;
        }

        /**
         * How long an idle queue waits before it looks for due items again (10 ms to 1 h, default 500 ms).
         * An item saved pending on this node wakes the queue at once when its transaction commits.
         *
         * @throws IllegalArgumentException if null or out of range
         */
        public Builder<E> pollInterval(Duration pollInterval) {
            this.pollInterval = EntityQueueSettings.POLL_INTERVAL.require(pollInterval);
            return this;
        }

        /**
         * The delay before each retry (default: exponential from 1 s up to 1 h, with jitter).
         *
         * @throws IllegalArgumentException if null
         */
        public Builder<E> retryPolicy(RetryPolicy retryPolicy) {
            if (retryPolicy == null) {
                throw new IllegalArgumentException("The retry policy must not be null; use for example"
                        + " RetryPolicy.fixed(Duration.ofMinutes(1)) or RetryPolicy.exponential(...)");
            }
            this.retryPolicy = retryPolicy;
            return this;
        }

        /**
         * The most attempts an item gets (1 to 1000; default 5, or what a {@link DelayList} covers).
         *
         * @throws IllegalArgumentException if out of range
         */
        public Builder<E> maxAttempts(int maxAttempts) {
            this.maxAttempts = EntityQueueSettings.MAX_ATTEMPTS.require(maxAttempts);
            return this;
        }

        /**
         * What runs when an item fails for good, in the transaction that marks it failed.
         *
         * @throws IllegalArgumentException if null
         */
        public Builder<E> onFinalFailure(FinalFailureCallback<E> callback) {
            if (callback == null) {
                throw new IllegalArgumentException(
                        "The final-failure callback must not be null; leave it unset if" + " nothing should happen");
            }
            this.onFinalFailure = callback;
            return this;
        }

        /** Builds the definition. */
        public EntityQueueDefinition<E> build() {
            return new EntityQueueDefinition<>(this);
        }

        private Builder<E> copy() {
            Builder<E> copy = new Builder<>(entityType, stateAttribute, processor);
            copy.name = name;
            copy.concurrency = concurrency;
            copy.batchSize = batchSize;
            copy.pollInterval = pollInterval;
            copy.retryPolicy = retryPolicy;
            copy.maxAttempts = maxAttempts;
            copy.onFinalFailure = onFinalFailure;
            return copy;
        }
    }
}
