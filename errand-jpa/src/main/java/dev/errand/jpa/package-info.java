/**
 * Queues in the application's own JPA entities: {@link dev.errand.jpa.EntityQueues} (the node),
 * {@link dev.errand.jpa.EntityQueuesBuilder} and {@link dev.errand.jpa.EntityQueue} (one queue's helpers).
 * The state an entity embeds is in {@code dev.errand.jpa.state}, how a queue is declared in
 * {@code dev.errand.jpa.queue}.
 */
package dev.errand.jpa;
