package dev.errand.workflow;

import dev.errand.config.Names;
import java.util.Map;

/**
 * A workflow that was enqueued.
 *
 * @param taskIds each step's task id, by step name, in the order the steps were added
 */
public record EnqueuedWorkflow(Map<String, Long> taskIds) {

    /** Copies the map, keeping its order. */
    public EnqueuedWorkflow {
        taskIds = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(taskIds));
    }

    /**
     * The task id of a step.
     *
     * @throws IllegalArgumentException if the workflow has no such step
     */
    public long taskId(String step) {
        Long id = taskIds.get(step);
        if (id == null) {
            throw new IllegalArgumentException("No step " + Names.echo(step) + " in this workflow; its steps are "
                    + Workflow.stepList(taskIds.keySet()));
        }
        return id;
    }
}
