package dev.errand.task;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * How a continuation is enqueued, for {@link TaskContext#continueWith(TaskKind, Object, ContinueOptions)}:
 * the {@linkplain EnqueueOptions options} of {@code TaskRequest.Builder} that make sense for a next step (run
 * time, priority, queue, attempts, pinning, unique key, expiry), checked by the same setters. Unset options take
 * the same defaults as an enqueue, except the queue: it stays the current task's.
 */
public final class ContinueOptions {

    private final EnqueueOptions options;

    private ContinueOptions(Builder builder) {
        this.options = builder.options();
    }

    /** Starts a set of options; every option is unset. */
    public static Builder builder() {
        return new Builder();
    }

    /** The options, as an enqueue takes them. */
    public EnqueueOptions options() {
        return options;
    }

    /** The delay after the completion (database clock), if set. */
    public Optional<Duration> delay() {
        return options.delay();
    }

    /** The earliest run time, if set. */
    public Optional<Instant> runAt() {
        return options.runAt();
    }

    /** The priority, if set. */
    public OptionalInt priority() {
        return options.priority();
    }

    /** The queue, if set; otherwise the continuation runs in the current task's queue. */
    public Optional<String> queue() {
        return options.queue();
    }

    /** The most attempts, if set. */
    public OptionalInt maxAttempts() {
        return options.maxAttempts();
    }

    /** The node the continuation is pinned to, if set. */
    public Optional<String> node() {
        return options.node();
    }

    /** The node group the continuation is pinned to, if set. */
    public Optional<String> nodeGroup() {
        return options.nodeGroup();
    }

    /** The unique key, if set. */
    public Optional<String> uniqueKey() {
        return options.uniqueKey();
    }

    /** How long after its enqueue the continuation expires if it has not run, if set. */
    public Optional<Duration> expiresIn() {
        return options.expiresIn();
    }

    /** Builds {@link ContinueOptions}, with the setters of {@link EnqueueOptions.Builder}. */
    public static final class Builder extends EnqueueOptions.Builder<Builder> {

        private Builder() {}

        /** Builds the options. */
        public ContinueOptions build() {
            return new ContinueOptions(this);
        }
    }
}
