package dev.errand.node;

import java.time.Duration;
import java.time.Instant;

/**
 * A retention changed at run time for the whole cluster ({@link ClusterAdmin#changeRetention}).
 *
 * @param retention which retention
 * @param age how long what has ended is kept
 * @param changedAt when it was set, on the database clock
 */
public record RetentionControl(Retention retention, Duration age, Instant changedAt) {}
