/**
 * Workflows and batches inside the engine: inserting them, and what follows a task's end (its
 * continuations, its dependents, its batch's counters and callbacks), in the transaction that ends it. The
 * SQL is in {@link dev.errand.internal.store.WorkflowStore}.
 */
package dev.errand.internal.workflow;
