package dev.errand.config;

import java.util.regex.Pattern;

/**
 * The prefix of every Errand table name, such as {@code errand_} for {@code errand_task}. It is
 * spliced into SQL, so only plain identifiers are accepted: a letter or underscore, then letters,
 * digits or underscores, at most 40 characters.
 *
 * @param value the prefix
 */
public record TablePrefix(String value) {

    // Declared before DEFAULT: static fields initialise in order, and DEFAULT's constructor uses it.
    private static final Pattern PLAIN_IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,39}");

    /** The default prefix, {@code errand_}. */
    public static final TablePrefix DEFAULT = new TablePrefix("errand_");

    /**
     * Validates the prefix.
     *
     * @throws IllegalArgumentException if it is not a plain SQL identifier
     */
    public TablePrefix {
        if (value == null || !PLAIN_IDENTIFIER.matcher(value).matches()) {
            throw new IllegalArgumentException("Table prefix must be a plain SQL identifier: a letter or '_'"
                    + " followed by letters, digits or '_', at most 40 characters (for example \"errand_\"), got "
                    + Names.echo(value));
        }
    }

    /** The task table's name. */
    public String taskTable() {
        return value + "task";
    }

    /** The schedule table's name. */
    public String scheduleTable() {
        return value + "schedule";
    }

    /** The cancel-request table's name. */
    public String cancelRequestTable() {
        return value + "cancel_request";
    }

    /** The table of the open conditions of waiting tasks. */
    public String conditionTable() {
        return value + "task_condition";
    }

    /** The table of premature events. */
    public String prematureEventTable() {
        return value + "premature_event";
    }

    /** The table of striped locks that triggers and enqueues of the same event share. */
    public String eventLockTable() {
        return value + "event_lock";
    }

    /** The table of the attempt history. */
    public String attemptTable() {
        return value + "task_attempt";
    }

    /** The table of attempts ended per node and minute, counted without the attempt history. */
    public String nodeThroughputTable() {
        return value + "node_throughput";
    }

    /** The table of the audit of the cluster-wide controls: who changed what, and when. */
    public String controlChangeTable() {
        return value + "control_change";
    }

    /** The table of the task counts stored for the whole cluster ({@code TaskAdmin.countsSnapshot}). */
    public String countSnapshotTable() {
        return value + "count_snapshot";
    }

    /** The table of batches. */
    public String batchTable() {
        return value + "batch";
    }

    /** The table of batches' striped progress counters. */
    public String batchCounterTable() {
        return value + "batch_counter";
    }

    /** The table of batches' callback definitions. */
    public String batchCallbackTable() {
        return value + "batch_callback";
    }

    /** The table of batch callbacks that fired, one row each. */
    public String batchFiredTable() {
        return value + "batch_fired";
    }

    /** The table of workflows' steps: each step's task, its workflow and its name. */
    public String workflowStepTable() {
        return value + "workflow_step";
    }

    /** The table of workflows' edges: each step that runs after another. */
    public String workflowEdgeTable() {
        return value + "workflow_edge";
    }

    /** The table of distributed processes. */
    public String processTable() {
        return value + "process";
    }

    /** The table of the turns of processes. */
    public String processTurnTable() {
        return value + "process_turn";
    }

    /** The table of the batches of processes' turns. */
    public String processBatchTable() {
        return value + "process_batch";
    }

    /** The table of the resume points of process creations that run on the cluster. */
    public String processCreationTable() {
        return value + "process_creation";
    }

    /** The name of Errand's own Flyway history table. */
    public String historyTable() {
        return value + "schema_history";
    }
}
