package dev.errand.node;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The cluster seen from any node: the node registry, the leader, commands to other nodes, and
 * cluster-wide queue controls. Commands travel through the database (a command row; on PostgreSQL also
 * a notification): a node acts on one at its next heartbeat at the latest, on PostgreSQL at once.
 * Obtain it from {@code Errand.cluster()}.
 */
public interface ClusterAdmin {

    /** Every node in the registry, by id, with its state on the database clock. */
    List<NodeInfo> nodes();

    /** The node that holds the leader lease now, if any. */
    Optional<String> leader();

    /** Makes the targeted nodes claim now on every queue, instead of at their next poll. */
    void repoll(NodeTarget target);

    /** Stops processing on the targeted nodes: they finish running tasks and claim no more. */
    void stopProcessing(NodeTarget target);

    /** Starts processing again on the targeted nodes. */
    void startProcessing(NodeTarget target);

    /**
     * Pauses a queue on every node: it keeps accepting enqueues, no node claims from it, running tasks finish.
     *
     * @throws IllegalArgumentException for a bad queue name
     */
    void pauseQueue(String queue);

    /**
     * Resumes a paused queue on every node.
     *
     * @throws IllegalArgumentException for a bad queue name
     */
    void resumeQueue(String queue);

    /**
     * Changes a queue's concurrency, poll interval or claim batch size on every node, at run time. The
     * change is stored, so nodes that start later apply it too.
     *
     * @throws IllegalArgumentException for a bad queue name or a null change
     */
    void changeQueue(String queue, QueueChange change);

    /**
     * Removes a queue's run-time overrides (keeps its pause state): every node goes back to its own settings.
     *
     * @throws IllegalArgumentException for a bad queue name
     */
    void resetQueue(String queue);

    /** The controls of every queue that has any. */
    List<QueueControl> queueControls();

    /**
     * Changes a kind's maximum attempts, retry policy or execution timeout on every node, at run time, in place of
     * its definition's (see {@link KindChange} for what each applies to). The change is stored, so nodes that start
     * later apply it too. The kind need not be registered on this node.
     *
     * @throws IllegalArgumentException for a bad kind name or a null change
     */
    void changeKind(String kind, KindChange change);

    /**
     * Removes a kind's run-time overrides: every node goes back to the kind's definition.
     *
     * @throws IllegalArgumentException for a bad kind name
     */
    void resetKind(String kind);

    /** The run-time overrides of every kind that has any. */
    List<KindControl> kindControls();

    /**
     * Changes a retention for the whole cluster: the leader keeps what has ended for {@code age}, from its next
     * prune on, instead of what the nodes were built with, until {@link #resetRetention}. The change is recorded
     * in the audit ({@link #changes}).
     *
     * @param retention which retention
     * @param age how long to keep what has ended, in the range of the build-time setting ({@link
     *     Retention#setting()}: 1 second to 3,650 days)
     * @throws IllegalArgumentException if {@code retention} is null, or {@code age} is null or outside that range
     */
    void changeRetention(Retention retention, Duration age);

    /**
     * Goes back to the retention the nodes were built with (none where they set none). Recorded in the audit.
     *
     * @throws IllegalArgumentException if {@code retention} is null
     */
    void resetRetention(Retention retention);

    /** The retentions changed at run time, in the order of {@link Retention}. */
    List<RetentionControl> retentionControls();

    /**
     * This admin acting for {@code actor}: every change it makes (pausing, resuming, changing or resetting a
     * queue; changing or resetting a kind; repolling, stopping or starting nodes) is recorded with that name, in the change's own transaction.
     * Changes made without it are recorded as {@code node:<id>} of the node they were made through. The console
     * passes its signed-in user.
     *
     * @throws IllegalArgumentException if {@code actor} is null, blank, longer than 200 characters, or starts or
     *     ends with whitespace
     */
    ClusterAdmin as(String actor);

    /**
     * The latest changes made through the cluster-wide controls, newest first: who, when (database clock), what
     * and to what.
     *
     * @param limit how many, 1 to 1,000
     * @throws IllegalArgumentException if {@code limit} is out of range
     */
    List<ControlChange> changes(int limit);
}
