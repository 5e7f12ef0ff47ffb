package dev.errand.internal.engine;

import dev.errand.internal.event.EventStore;
import dev.errand.internal.history.AttemptHistory;
import dev.errand.internal.store.Storage;
import dev.errand.internal.workflow.Finisher;
import dev.errand.internal.workflow.WorkflowStore;

/**
 * The statements a task's path touches beyond the task table, each built once for the node: what the
 * engine's services and the task admin share. A service takes what it uses from it; the capabilities'
 * own services take their store alone.
 *
 * @param storage the task table, its transactions and the clock
 * @param workflows continuations, dependencies and batches
 * @param events conditions and premature events
 * @param attempts the attempt history
 * @param finisher what follows a task's end in the transaction that ends it
 */
public record Stores(
        Storage storage, WorkflowStore workflows, EventStore events, AttemptHistory attempts, Finisher finisher) {}
