package dev.errand.internal.process;

import dev.errand.process.ProcessDefinition;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The processes a node registers, and the three task kinds each is run by: one that creates it from a query on the
 * cluster, one that runs a batch and one that analyses a turn. The tasks' handlers reach the node's {@link ProcessRuntime} once the node is built.
 */
public final class ProcessRegistry {

    /** How many attempts a process task has: a node that dies during one costs an attempt. */
    static final int TASK_ATTEMPTS = 5;

    private final Map<String, ProcessDefinition<?>> definitions = new LinkedHashMap<>();
    private volatile ProcessRuntime runtime;

    /** The kind of the tasks that run the batches of process {@code name}. */
    public static String batchKind(String name) {
        return "errand:process:" + name + ":batch";
    }

    /** The kind of the tasks that create process {@code name} from its query on the cluster. */
    public static String createKind(String name) {
        return "errand:process:" + name + ":create";
    }

    /** The kind of the tasks that analyse the turns of process {@code name}. */
    public static String turnKind(String name) {
        return "errand:process:" + name + ":turn";
    }

    /** Whether {@code kind} is the kind of a process's analysis tasks, whatever the process. */
    public static boolean isTurnKind(String kind) {
        return kind.startsWith("errand:process:") && kind.endsWith(":turn");
    }

    /** Whether {@code kind} is the kind of a process's creation tasks, whatever the process. */
    public static boolean isCreateKind(String kind) {
        return kind.startsWith("errand:process:") && kind.endsWith(":create");
    }

    /**
     * Adds a process.
     *
     * @return the task definitions to register for it
     * @throws IllegalArgumentException if it is null or registered already
     */
    public List<TaskDefinition<?>> add(ProcessDefinition<?> definition) {
        if (definition == null) {
            throw new IllegalArgumentException(
                    "definition must not be null: build one with ProcessDefinition.of or ProcessDefinition.simple");
        }
        if (definitions.putIfAbsent(definition.name(), definition) != null) {
            throw new IllegalArgumentException("Process '" + definition.name() + "' is registered twice; each"
                    + " process needs exactly one definition");
        }
        return List.of(
                // Not transactional: it runs a transaction per page, and a crash resumes after the last one.
                TaskDefinition.builder(createKind(definition.name()), CreationRef.class, (ref, context) -> runtime()
                                .creation()
                                .run(ref, context))
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .maxAttempts(TASK_ATTEMPTS)
                        // Without its creation a process would stay initializing: it fails instead.
                        .onFailure((failed, c) -> runtime().creation().taskFailed(failed.payload(), failed.error(), c))
                        .build(),
                TaskDefinition.builder(batchKind(definition.name()), BatchRef.class, (ref, context) -> runtime()
                                .runBatch(ref, context))
                        .maxAttempts(TASK_ATTEMPTS)
                        // In the transaction that fails the task: the batch's row gets the task's error.
                        .onFailure((failed, c) -> runtime().batchTaskFailed(failed.payload(), failed.error(), c))
                        .build(),
                TaskDefinition.builder(turnKind(definition.name()), TurnRef.class, (ref, context) -> runtime()
                                .analyse(ref, context))
                        .maxAttempts(TASK_ATTEMPTS)
                        // Without its analysis a turn never ends: the process fails rather than stay running.
                        .onFailure((failed, c) -> runtime().analysisTaskFailed(failed.payload(), failed.error(), c))
                        .build());
    }

    /** The definition of a process, or {@code null} if this node does not register it. */
    public ProcessDefinition<?> definition(String name) {
        return definitions.get(name);
    }

    /** Connects the registry to the node's runtime, once it is built. */
    public void bind(ProcessRuntime runtime) {
        this.runtime = runtime;
    }

    private ProcessRuntime runtime() {
        ProcessRuntime bound = runtime;
        if (bound == null) {
            throw new IllegalStateException("The process runtime is not bound; build the node with ErrandBuilder");
        }
        return bound;
    }
}
