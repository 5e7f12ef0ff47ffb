package dev.errand.internal.runtime;

import java.time.Duration;

/**
 * One periodic background duty of a node: what it is called (its name in the node's health), how often it
 * runs (a fixed delay after the previous run ends), where it runs, the thread it shares with other duties,
 * and its body. {@link DutyHost} runs every duty of a node.
 *
 * @param name the duty's name, as the node's health reports its failures
 * @param interval the delay between the end of one run and the start of the next
 * @param scope on every processing node, or on the leader only
 * @param thread the suffix of the thread it runs on; duties that share a thread never run at once
 * @param body one run
 */
public record Duty(String name, Duration interval, Scope scope, String thread, Body body) {

    /** Where a duty runs. */
    public enum Scope {
        /** On every node while it processes tasks (the sweeps that recover what this node's engine left). */
        EVERY_NODE,
        /**
         * On the node that holds the leader lease, whether or not it processes tasks; a node without the
         * registry is its own leader.
         */
        LEADER
    }

    /** One run of a duty; it may fail with anything, and runs again at its next interval. */
    @FunctionalInterface
    public interface Body {
        /** Does one run. */
        void run() throws Exception;
    }

    /** Checks the duty. */
    public Duty {
        if (name == null || interval == null || scope == null || thread == null || body == null) {
            throw new IllegalArgumentException("a duty needs a name, an interval, a scope, a thread and a body");
        }
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("duty '" + name + "' needs a positive interval, got " + interval);
        }
    }
}
