package dev.errand.internal.engine;

import dev.errand.config.ErrandSettings;
import dev.errand.internal.enqueue.KindOverrides;
import dev.errand.internal.enqueue.Requests;
import dev.errand.internal.outcome.AttemptFacts;
import dev.errand.node.KindControl;
import dev.errand.retry.RetryPolicy;
import dev.errand.spi.ClaimedTask;
import dev.errand.spi.PayloadCodec;
import dev.errand.spi.TaskTracing;
import dev.errand.task.LeaseExpiryAction;
import dev.errand.task.TaskDefinition;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The kinds this node can run, with their options resolved against the engine's defaults, and the
 * codec that decodes their payloads.
 */
public final class Kinds {

    private final Map<String, TaskDefinition<?>> definitions;
    private final Map<String, RegisteredKind> kinds = new LinkedHashMap<>();
    private final PayloadCodec codec;
    private final ErrandSettings settings;
    private final RetryPolicy unknownKindRetries;
    private final Requests requests;
    private final TaskTracing tracing;
    private final KindOverrides overrides = new KindOverrides();

    /** Resolves the definitions against the settings' defaults, without tracing. */
    public Kinds(Map<String, TaskDefinition<?>> definitions, PayloadCodec codec, ErrandSettings settings) {
        this(definitions, codec, settings, TaskTracing.NONE);
    }

    /** Resolves the definitions against the settings' defaults; {@code tracing} links enqueues to attempts. */
    public Kinds(
            Map<String, TaskDefinition<?>> definitions,
            PayloadCodec codec,
            ErrandSettings settings,
            TaskTracing tracing) {
        this.definitions = Map.copyOf(definitions);
        this.codec = codec;
        this.settings = settings;
        this.unknownKindRetries = RetryPolicy.fixed(settings.unknownKindRetryDelay());
        this.tracing = tracing;
        this.requests = new Requests(settings, this.definitions, codec, tracing, overrides);
        definitions.forEach((name, definition) -> kinds.put(
                name,
                new RegisteredKind(
                        definition,
                        definition.retryPolicy() != null ? definition.retryPolicy() : settings.defaultRetryPolicy(),
                        definition.leaseDuration() != null ? definition.leaseDuration() : settings.leaseDuration(),
                        definition.executionTimeout())));
    }

    /**
     * The kind of a task with the cluster's run-time overrides applied, or {@code null} if this node has no handler
     * for it.
     */
    RegisteredKind of(ClaimedTask task) {
        RegisteredKind kind = kinds.get(task.kind());
        KindControl override = kind == null ? null : overrides.of(task.kind());
        return override == null ? kind : kind.with(override);
    }

    /** The kinds' run-time overrides, which the node replaces when the cluster's controls change. */
    public KindOverrides overrides() {
        return overrides;
    }

    /** Turns requests for these kinds into rows: one for the node, shared by every enqueuer. */
    public Requests requests() {
        return requests;
    }

    /** Links enqueues to attempts; {@link TaskTracing#NONE} unless the application configured tracing. */
    TaskTracing tracing() {
        return tracing;
    }

    /** The codec. */
    public PayloadCodec codec() {
        return codec;
    }

    /** The registered definitions by kind name. */
    public Map<String, TaskDefinition<?>> definitions() {
        return definitions;
    }

    /** What the outcome decision needs about an attempt of {@code task}; {@code kind} may be null. */
    AttemptFacts facts(ClaimedTask task, RegisteredKind kind) {
        return new AttemptFacts(
                task.attempt(),
                task.maxAttempts(),
                kind == null ? unknownKindRetries : kind.retryPolicy(),
                kind == null ? LeaseExpiryAction.RETRY : kind.definition().leaseExpiryAction(),
                settings.unknownKindRetryDelay(),
                settings.nodeId());
    }

    /** The node's settings. */
    ErrandSettings settings() {
        return settings;
    }

    /** This node's id. */
    String nodeId() {
        return settings.nodeId();
    }
}
