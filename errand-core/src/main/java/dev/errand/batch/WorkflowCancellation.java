package dev.errand.batch;

/**
 * What {@link BatchAdmin#cancelWorkflow(long)} did.
 *
 * @param workflowId the workflow's id: the task id of its first step
 * @param cancelled the steps that were unfinished and are cancelled now (by the call, or by the cancel of a step
 *     they depend on), read back after the call
 * @param askedToStop the steps that were running and are asked to stop (they end cancelled if their handler
 *     stops)
 */
public record WorkflowCancellation(long workflowId, long cancelled, long askedToStop) {}
