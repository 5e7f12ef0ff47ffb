package dev.errand.admin;

import dev.errand.event.WaitingTask;
import java.util.List;

/**
 * What a task is linked to: its batch, its workflow and step, the tasks it runs after and before, and the events
 * it still waits for.
 *
 * @param batchId its batch, or {@code null}
 * @param workflowId its workflow (the task id of the workflow's first step), or {@code null}
 * @param step its step's name in the workflow, or {@code null}
 * @param dependsOn the tasks it runs after: its workflow's edges into it, and any dependency condition still open
 * @param dependents the tasks that run after it in its workflow
 * @param openConditions the conditions it still waits for (events, and {@code errand:after:<id>} dependencies)
 */
public record TaskLinks(
        Long batchId,
        Long workflowId,
        String step,
        List<Long> dependsOn,
        List<Long> dependents,
        List<WaitingTask.OpenCondition> openConditions) {

    /** Copies the lists. */
    public TaskLinks {
        dependsOn = List.copyOf(dependsOn);
        dependents = List.copyOf(dependents);
        openConditions = List.copyOf(openConditions);
    }
}
