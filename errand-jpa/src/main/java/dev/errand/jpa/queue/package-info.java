/**
 * Declaring an entity queue: {@link dev.errand.jpa.queue.EntityQueueDefinition}, the
 * {@link dev.errand.jpa.queue.EntityProcessor} that processes an item, the
 * {@link dev.errand.jpa.queue.FinalFailureCallback}, and the settings' ranges.
 */
package dev.errand.jpa.queue;
