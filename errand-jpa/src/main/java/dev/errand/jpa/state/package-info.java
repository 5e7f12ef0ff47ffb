/**
 * The queueing state that an entity embeds, one per queue: {@link dev.errand.jpa.state.QueueState} and its
 * {@link dev.errand.jpa.state.QueueStatus}.
 */
package dev.errand.jpa.state;
