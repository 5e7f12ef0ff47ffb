package dev.errand.jpa.queue;

import dev.errand.config.Setting;
import java.time.Duration;

/**
 * The settings of entity queues, with their defaults and ranges. The builders check their arguments
 * against these, and the Spring Boot properties {@code errand.jpa.*} read the same objects.
 */
public final class EntityQueueSettings {

    /** How many items of a queue one node processes at once (its worker threads). */
    public static final Setting<Integer> CONCURRENCY =
            Setting.ofInt("concurrency", 4, 1, 1_000, "How many items of the queue this node processes at once.");

    /** The most items one claim takes. */
    public static final Setting<Integer> BATCH_SIZE =
            Setting.ofInt("batchSize", 100, 1, 10_000, "The most items one claim takes.");

    /** How long an idle queue waits before it looks for due items again. */
    public static final Setting<Duration> POLL_INTERVAL = Setting.ofDuration(
            "pollInterval",
            Duration.ofMillis(500),
            Duration.ofMillis(10),
            Duration.ofHours(1),
            "How long an idle queue waits before it looks for due items again.");

    /** The most attempts an item gets before it fails for good. */
    public static final Setting<Integer> MAX_ATTEMPTS =
            Setting.ofInt("maxAttempts", 5, 1, 1_000, "The most attempts an item gets before it fails for good.");

    /** How long a claimed item belongs to its node before another node may rescue it. */
    public static final Setting<Duration> LEASE_DURATION = Setting.ofDuration(
            "leaseDuration",
            Duration.ofSeconds(60),
            Duration.ofSeconds(1),
            Duration.ofHours(24),
            "How long a claimed item belongs to its node before another node may rescue it.");

    /** How often a node looks for items whose lease expired. */
    public static final Setting<Duration> RESCUE_INTERVAL = Setting.ofDuration(
            "rescueInterval",
            Duration.ofSeconds(15),
            Duration.ofMillis(100),
            Duration.ofHours(1),
            "How often a node looks for items whose lease expired.");

    /** How long stopping waits for the items being processed. */
    public static final Setting<Duration> SHUTDOWN_TIMEOUT = Setting.ofDuration(
            "shutdownTimeout",
            Duration.ofSeconds(30),
            Duration.ZERO,
            Duration.ofHours(1),
            "How long stopping waits for the items being processed.");

    private EntityQueueSettings() {}
}
