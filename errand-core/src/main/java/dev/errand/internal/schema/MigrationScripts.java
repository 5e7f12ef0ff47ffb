package dev.errand.internal.schema;

import java.util.List;

/**
 * Errand's SQL migration scripts, listed by name in version order, the same names in every dialect's folder
 * under {@code dev/errand/schema/}. Flyway is given this list instead of scanning the class path, which a
 * native image cannot do; {@code MigrationScriptsTest} fails when a script on the class path is missing here.
 */
public final class MigrationScripts {

    /** The class-path folder of the scripts, with a trailing slash; a dialect's folder is below it. */
    public static final String ROOT = "dev/errand/schema/";

    /** Every script's file name, in version order. H2's version 3 is a Java migration ({@code H2SessionFreeChecks}). */
    public static final List<String> NAMES = List.of(
            "V1__create_task_table.sql",
            "V2__add_claim_version.sql",
            "V4__add_cancel_request.sql",
            "V5__add_schedule.sql",
            "V6__add_events.sql",
            "V7__add_attempt_history.sql",
            "V8__add_workflows.sql",
            "V9__add_cluster.sql",
            "V10__add_interruptions.sql",
            "V11__add_processes.sql",
            "V12__schedule_fire_ahead.sql",
            "V13__schedule_pause_reason.sql",
            "V14__add_trace_context.sql",
            "V15__task_list_index.sql",
            "V16__workflow_graph.sql",
            "V17__flow_control.sql",
            "V18__task_progress_and_batch_results.sql",
            "V19__node_throughput.sql",
            "V21__process_creation.sql",
            "V22__flow_rates_and_queue_limits.sql",
            "V24__runtime_controls.sql",
            "V25__count_snapshot.sql",
            "V26__retention_control.sql",
            "V27__history_indexes.sql",
            "V28__flow_key_and_queue_rates.sql",
            "V29__flow_slot_chains.sql");

    private MigrationScripts() {}

    /** The class-path paths of one dialect's scripts, such as {@code dev/errand/schema/h2/V1__create_task_table.sql}. */
    public static List<String> paths(String dialectFolder) {
        return NAMES.stream().map(name -> ROOT + dialectFolder + "/" + name).toList();
    }
}
