/**
 * Workflows: tasks that run after other tasks have succeeded, as a directed acyclic graph enqueued in one
 * call ({@link dev.errand.workflow.Workflow}). Continuations, the other form of chaining, are enqueued by a
 * handler through {@link dev.errand.task.TaskContext#continueWith}.
 */
package dev.errand.workflow;
