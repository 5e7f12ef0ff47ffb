/**
 * Workflows and batches: inserting them, what follows a task's end (its continuations, its dependents, its
 * batch's counters and callbacks) in the transaction that ends it, their SQL
 * ({@link dev.errand.internal.workflow.WorkflowStore}), the batch admin API, and the batch sweep and pruning.
 */
package dev.errand.internal.workflow;
