package dev.errand.node;

import dev.errand.config.Setting;
import dev.errand.config.Settings;
import java.time.Duration;

/**
 * A retention that {@link ClusterAdmin#changeRetention} changes at run time for the whole cluster: how long the
 * leader keeps what has ended before it deletes it. A change applies at the leader's next prune (every
 * {@code pruneInterval}), over the value the nodes were built with, until it is reset.
 *
 * <p>Not here: the succeeded-task retention, which decides on the worker's completion path whether a succeeded
 * task's row is kept at all; it stays a build-time setting.
 */
public enum Retention {
    /** Failed tasks ({@code ErrandBuilder.failedRetention}); kinds with a retention of their own keep theirs. */
    FAILED_TASKS("failed-tasks", Settings.FAILED_RETENTION),
    /** Cancelled tasks ({@code ErrandBuilder.cancelledRetention}); kinds with their own keep theirs. */
    CANCELLED_TASKS("cancelled-tasks", Settings.CANCELLED_RETENTION),
    /** The attempt history ({@code ErrandBuilder.historyRetention}), where the history is on. */
    ATTEMPT_HISTORY("attempt-history", Settings.HISTORY_RETENTION),
    /** Finished batches ({@code ErrandBuilder.batchRetention}). */
    BATCHES("batches", Settings.BATCH_RETENTION),
    /** Premature events ({@code ErrandBuilder.prematureEventRetention}). */
    PREMATURE_EVENTS("premature-events", Settings.PREMATURE_EVENT_RETENTION),
    /** The registry rows of stopped and dead nodes ({@code ErrandBuilder.nodeRetention}, at least a minute). */
    STOPPED_NODES("stopped-nodes", Settings.NODE_RETENTION);

    private final String dbValue;
    private final Setting<Duration> setting;

    Retention(String dbValue, Setting<Duration> setting) {
        this.dbValue = dbValue;
        this.setting = setting;
    }

    /** The build-time setting this retention changes, whose range a run-time value must fit too. */
    public Setting<Duration> setting() {
        return setting;
    }

    /** The name stored in the {@code retention_control} table and shown in the audit. */
    public String dbValue() {
        return dbValue;
    }

    /**
     * The retention stored as {@code value}.
     *
     * @throws IllegalArgumentException if no retention is stored so
     */
    public static Retention fromDbValue(String value) {
        for (Retention retention : values()) {
            if (retention.dbValue.equals(value)) {
                return retention;
            }
        }
        throw new IllegalArgumentException("unknown retention '" + value + "'");
    }
}
