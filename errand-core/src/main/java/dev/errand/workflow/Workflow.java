package dev.errand.workflow;

import dev.errand.config.Names;
import dev.errand.enqueue.TaskRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Tasks with dependencies between them, enqueued in one call in the caller's transaction. A step runs once
 * every step it comes {@linkplain Builder#step(String, TaskRequest, String...) after} has succeeded; until
 * then its task is {@code waiting}, and no poller looks at it. A step may only come after steps added
 * before it, so the graph has no cycle.
 *
 * <pre>{@code
 * Workflow diamond = Workflow.builder()
 *         .step("fetch", TaskRequest.of(FETCH, order))
 *         .step("invoice", TaskRequest.of(INVOICE, order), "fetch")
 *         .step("ship", TaskRequest.of(SHIP, order), "fetch")
 *         .step("notify", TaskRequest.of(NOTIFY, order), "invoice", "ship")
 *         .build();
 * }</pre>
 */
public final class Workflow {

    /** The longest step name. */
    public static final int MAX_STEP_NAME_LENGTH = 200;

    private final Map<String, Step> steps;
    private final DependencyPolicy policy;

    private Workflow(Builder builder) {
        this.steps = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(builder.steps));
        this.policy = builder.policy;
    }

    /** Starts a workflow. */
    public static Builder builder() {
        return new Builder();
    }

    /** The steps by name, in the order they were added (dependencies first). */
    public Map<String, Step> steps() {
        return steps;
    }

    /** What dependents do when a step they depend on fails for good or is cancelled. */
    public DependencyPolicy policy() {
        return policy;
    }

    /**
     * One step.
     *
     * @param name its name, unique in the workflow
     * @param request its task
     * @param after the names of the steps it runs after
     */
    public record Step(String name, TaskRequest request, List<String> after) {

        /** Copies the list. */
        public Step {
            after = List.copyOf(after);
        }
    }

    /** The first few step names, quoted and cut, and how many there are: a message must stay short. */
    static String stepList(java.util.Collection<String> names) {
        StringBuilder list = new StringBuilder("[");
        int shown = 0;
        for (String name : names) {
            if (shown == 10) {
                list.append(", ... (").append(names.size()).append(" steps)");
                break;
            }
            list.append(shown++ == 0 ? "" : ", ").append(Names.echo(name));
        }
        return list.append(']').toString();
    }

    /** Builds a {@link Workflow}. */
    public static final class Builder {
        private final Map<String, Step> steps = new LinkedHashMap<>();
        private DependencyPolicy policy = DependencyPolicy.CANCEL;

        private Builder() {}

        /**
         * Adds a step that runs after the named steps have succeeded (or at once, if none is named).
         *
         * @param name the step's name, unique in this workflow
         * @param request its task; without a unique key
         * @param after steps added before this one
         * @throws IllegalArgumentException for a blank or duplicate name, a null request, a request with a
         *     unique key, or an {@code after} that names no earlier step
         */
        public Builder step(String name, TaskRequest request, String... after) {
            if (name == null || name.isBlank() || name.length() > MAX_STEP_NAME_LENGTH) {
                throw new IllegalArgumentException("step name must be 1 to " + MAX_STEP_NAME_LENGTH
                        + " characters and not blank, was " + Names.echo(name));
            }
            if (name.indexOf('\u0000') >= 0) {
                // Step names are stored with the workflow's graph, and PostgreSQL's text refuses NUL.
                throw new IllegalArgumentException("step name must not contain NUL (U+0000), which the database"
                        + " cannot store; was " + Names.echo(name));
            }
            if (steps.containsKey(name)) {
                throw new IllegalArgumentException(
                        "Step " + Names.echo(name) + " is already in this workflow; give each step its own name");
            }
            if (request == null) {
                throw new IllegalArgumentException("request of step " + Names.echo(name)
                        + " must not be null: build one with TaskRequest.of(kind, payload)");
            }
            if (request.uniqueKey() != null) {
                throw new IllegalArgumentException(
                        "Step " + Names.echo(name) + " has a unique key; a deduplicated step would"
                                + " leave its dependents without their dependency. Drop the key");
            }
            if (after == null) {
                throw new IllegalArgumentException(
                        "after must not be null; leave it out for a step without dependencies");
            }
            Set<String> names = new LinkedHashSet<>();
            for (String dependency : after) {
                if (!steps.containsKey(dependency)) {
                    throw new IllegalArgumentException("Step " + Names.echo(name) + " comes after "
                            + Names.echo(dependency) + ", which is not a step added before it; add steps in"
                            + " dependency order. Steps so far: " + stepList(steps.keySet()));
                }
                names.add(dependency);
            }
            steps.put(name, new Step(name, request, new ArrayList<>(names)));
            return this;
        }

        /**
         * Sets what dependents do when a step they depend on fails for good or is cancelled;
         * {@link DependencyPolicy#CANCEL} by default.
         *
         * @throws IllegalArgumentException if {@code policy} is null
         */
        public Builder onFailedDependency(DependencyPolicy policy) {
            if (policy == null) {
                throw new IllegalArgumentException("policy must not be null: pass DependencyPolicy.CANCEL or RUN");
            }
            this.policy = policy;
            return this;
        }

        /**
         * Builds the workflow.
         *
         * @throws IllegalArgumentException if it has no step
         */
        public Workflow build() {
            if (steps.isEmpty()) {
                throw new IllegalArgumentException(
                        "A workflow needs at least one step; add them with step(name, request)");
            }
            return new Workflow(this);
        }
    }
}
