package dev.errand.internal.store;

import dev.errand.spi.ClaimedTask;

/**
 * A running task whose lease has expired, locked for rescue.
 *
 * @param task the task as it was claimed, with the expired lease's token
 * @param leaseOwner the node that lost it
 */
public record ExpiredLease(ClaimedTask task, String leaseOwner) {}
