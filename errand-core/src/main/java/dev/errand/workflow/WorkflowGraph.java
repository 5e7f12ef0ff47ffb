package dev.errand.workflow;

import dev.errand.task.TaskState;
import java.util.List;

/**
 * A workflow's steps and the edges between them, as stored when it was enqueued, with each step's state now.
 *
 * @param workflowId the workflow's id: the task id of its first step
 * @param steps its steps, in the order they were added
 * @param edges its {@code after} edges: each from a step to one that runs after it
 */
public record WorkflowGraph(long workflowId, List<Step> steps, List<Edge> edges) {

    /** Copies the lists. */
    public WorkflowGraph {
        steps = List.copyOf(steps);
        edges = List.copyOf(edges);
    }

    /**
     * One step.
     *
     * @param taskId its task's id
     * @param step its name in the workflow
     * @param state its task's state now, or {@code null} if the task was pruned or deleted
     */
    public record Step(long taskId, String step, TaskState state) {}

    /**
     * One edge: {@code toTaskId} runs after {@code fromTaskId}.
     *
     * @param fromTaskId the step that runs first
     * @param toTaskId the step that runs after it
     */
    public record Edge(long fromTaskId, long toTaskId) {}
}
