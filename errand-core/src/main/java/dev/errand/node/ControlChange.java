package dev.errand.node;

import java.time.Instant;

/**
 * One change made through the cluster-wide controls, as the audit recorded it in the change's own transaction.
 *
 * @param id the change's id; later changes have larger ids
 * @param changedAt when it was made, on the database clock
 * @param actor who made it: the name given to {@link ClusterAdmin#as(String)} (the console passes its signed-in
 *     user), or {@code node:<id>} for a call without one
 * @param action what was done, such as {@code pause-queue}, {@code change-queue} or {@code stop-processing}
 * @param target what it was done to: {@code queue:<name>}, {@code node:<id>}, {@code group:<name>} or
 *     {@code all-nodes}
 * @param detail the values set, such as {@code concurrency=4}, or {@code null}
 */
public record ControlChange(long id, Instant changedAt, String actor, String action, String target, String detail) {}
