package dev.errand.flow;

import java.util.List;

/**
 * Flow limits seen and changed from any node: what is in force, how many slots are in use, how many tasks
 * wait, and run-time overrides of the declared limits. A change is stored in the database and every node
 * applies it at its next refresh (one heartbeat interval); the node that makes it applies it at once. Lowering
 * a limit stops no running task: no new task of the kind starts beyond the new limit's free slots, and the
 * tasks running on slots above it finish. Every change and reset writes a row to the audit of the cluster-wide
 * controls in its own transaction. Obtain it from {@code Errand.flow()}. See docs/FLOW-CONTROL.md.
 */
public interface FlowAdmin {

    /**
     * The same admin API, with every change recorded under {@code actor} in the audit of the cluster-wide controls
     * ({@code ClusterAdmin.changes}), as {@code ClusterAdmin.as} does; without it, changes are recorded as
     * {@code node:<id>} of the node the call goes through.
     *
     * @param actor who makes the changes, such as a user name: 1 to 200 characters without control characters or
     *     surrounding spaces
     * @throws IllegalArgumentException if {@code actor} is not such a name
     */
    FlowAdmin as(String actor);

    /** Every kind with a limit in force, by kind name, with its slots in use and its waiting tasks. */
    List<FlowLimit> limits();

    /**
     * Every queue with a cluster-wide limit, by name, with its slots in use, its starts in the rate window and its
     * waiting tasks.
     */
    List<QueueLimit> queueLimits();

    /**
     * Sets a kind's concurrency limit on every node, over what its definition declares.
     *
     * @param kind a kind registered on this node, or one that has a limit already
     * @param maxRunning the most tasks of the kind running at once, 1 to {@value FlowLimits#MAX_CONCURRENCY_LIMIT}
     * @throws IllegalArgumentException for an unknown kind, a limit out of range, or a kind with a per-key limit
     *     in force
     */
    void changeLimit(String kind, int maxRunning);

    /**
     * Sets a kind's per-key limit on every node, over what its definition declares.
     *
     * @param kind a kind registered on this node, or one that has a limit already
     * @param maxRunning the most tasks of the kind with one key running at once, 1 to {@value
     *     FlowLimits#MAX_CONCURRENCY_LIMIT}
     * @throws IllegalArgumentException for an unknown kind, a limit out of range, or a kind with a concurrency
     *     limit in force
     */
    void changeLimitPerKey(String kind, int maxRunning);

    /**
     * Sets a kind's rate limit on every node, over what its definition declares. Each node applies it at its next
     * refresh (this one at once); starts already made count against the new limit's window.
     *
     * @param kind a kind registered on this node, or one that has a limit already
     * @param limit the most starts per period
     * @throws IllegalArgumentException for an unknown kind, a null limit, or a kind with a concurrency or per-key
     *     limit in force
     */
    void changeRateLimit(String kind, RateLimit limit);

    /**
     * Sets a kind's per-key rate limit on every node, over what its definition declares: at most {@code
     * limit.starts()} tasks of one limit key start in any window of {@code limit.period()}. Each node applies it at
     * its next refresh (this one at once); starts already made count against the new limit's window.
     *
     * @param kind a kind registered on this node, or one that has a limit already
     * @param limit the most starts of one key per period
     * @throws IllegalArgumentException for an unknown kind, a null limit, or a kind with another flow limit in force
     */
    void changeRateLimitPerKey(String kind, RateLimit limit);

    /**
     * Sets a queue's cluster-wide concurrency limit on every node, over what the nodes' settings declare.
     *
     * @param queue a queue this node serves, or one that has a limit already
     * @param maxRunning the most of its tasks running at once, 1 to {@value FlowLimits#MAX_CONCURRENCY_LIMIT}
     * @throws IllegalArgumentException for an unknown queue or a limit out of range
     */
    void changeQueueLimit(String queue, int maxRunning);

    /**
     * Sets a queue's cluster-wide rate limit on every node, over what the nodes' settings declare: at most {@code
     * limit.starts()} of its tasks, whatever their kind, start in any window of {@code limit.period()}. Starts
     * already made count against the new limit's window.
     *
     * @param queue a queue this node serves, or one that has a limit already
     * @param limit the most starts per period
     * @throws IllegalArgumentException for an unknown queue or a null limit
     */
    void changeQueueRateLimit(String queue, RateLimit limit);

    /**
     * Removes a queue's run-time limits (concurrency and rate): the limits its nodes declare apply again (none, if
     * they declare none).
     *
     * @param queue the queue
     * @throws IllegalArgumentException for a bad queue name
     */
    void resetQueueLimit(String queue);

    /**
     * Removes a kind's run-time overrides (concurrency, per-key, rate and per-key rate): its definitions' declared
     * limits apply again (none, if they declare none).
     *
     * @param kind the kind
     * @throws IllegalArgumentException for a bad kind name
     */
    void resetLimits(String kind);
}
