package dev.errand.crash;

import dev.errand.Errand;
import dev.errand.batch.BatchEvent;
import dev.errand.batch.BatchRequest;
import dev.errand.enqueue.TaskRequest;
import dev.errand.workflow.Workflow;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * The chaos run's work beside its plain tasks, in its scale mode: batches with callbacks and diamond
 * workflows (the kinds of {@link WorkflowWorkerMain}, enqueued by the harness as the run goes), and a
 * schedule that fires every second on the leader of the worker JVMs. {@link #check} then counts what a
 * fault could have lost or applied twice: a batch callback that fired twice or never, a member or step
 * without its effect or with two, a workflow step that ran before one it depends on, a schedule slot's
 * task left behind.
 */
final class ChaosExtras {

    /** The schedule's kind and name. */
    static final String TICK = "chaos-tick";

    static final int MEMBERS_PER_BATCH = 200;
    static final int DIAMONDS_PER_ROUND = 5;

    /** What {@link #check} found. */
    record Found(long lost, long duplicates, long violations, long uncountedRuns, String summary) {}

    private final String prefix;
    private int batches;
    private int diamonds;

    ChaosExtras(String prefix) {
        this.prefix = prefix;
    }

    /** Enqueues one round: a batch of members with a COMPLETE and a SUCCESS callback, and a few diamonds. */
    void enqueueRound(Errand harness) {
        List<TaskRequest> members = new ArrayList<>(MEMBERS_PER_BATCH);
        for (int i = 0; i < MEMBERS_PER_BATCH; i++) {
            members.add(TaskRequest.of(i % 2 == 0 ? "member" : "loose-member", i));
        }
        harness.enqueueBatch(BatchRequest.builder()
                .addAll(members)
                .on(BatchEvent.COMPLETE, id -> TaskRequest.of("callback", "complete"))
                .on(BatchEvent.SUCCESS, id -> TaskRequest.of("callback", "success"))
                .build());
        batches++;
        for (int w = 0; w < DIAMONDS_PER_ROUND; w++) {
            // A name of its own per diamond: the step handler finds its dependencies' effects by name.
            String flow = "d" + (diamonds++);
            harness.enqueueWorkflow(Workflow.builder()
                    .step("a", TaskRequest.of("step", flow + ":a"))
                    .step("b", TaskRequest.of("step", flow + ":b"), "a")
                    .step("c", TaskRequest.of("step", flow + ":c"), "a")
                    .step("d", TaskRequest.of("step", flow + ":d"), "b", "c")
                    .build());
        }
    }

    /** The SQL condition that leaves the schedule's tasks out of "unfinished": a slot ahead is pending. */
    static String notTicks() {
        return "kind <> '" + TICK + "'";
    }

    Found check(DataSource direct) throws SQLException {
        String task = prefix + "task";
        String effect = prefix + "effect";
        String succeeded = "state = 'succeeded'";
        long members = scalar(
                direct, "SELECT COUNT(*) FROM " + task + " WHERE kind IN ('member', 'loose-member') AND " + succeeded);
        long steps = scalar(direct, "SELECT COUNT(*) FROM " + task + " WHERE kind = 'step' AND " + succeeded);
        long memberWithoutEffect = withoutEffect(direct, "member", "e.note = 'member'");
        long looseWithoutRun = withoutEffect(direct, "loose-member", "e.note = 'loose'");
        long stepWithoutEffect = withoutEffect(direct, "step", "e.note NOT LIKE 'VIOLATION%'");
        long tickWithoutEffect = withoutEffect(direct, TICK, "e.note = 'tick'");
        long completes = scalar(direct, "SELECT COUNT(*) FROM " + effect + " WHERE note = 'callback complete'");
        long successes = scalar(direct, "SELECT COUNT(*) FROM " + effect + " WHERE note = 'callback success'");
        long violations = scalar(direct, "SELECT COUNT(*) FROM " + effect + " WHERE note LIKE 'VIOLATION%'");
        long ticks = scalar(direct, "SELECT COUNT(*) FROM " + task + " WHERE kind = '" + TICK + "' AND " + succeeded);
        // Slots are written in order, each firing the next: a tick older than a succeeded one and not ended is stuck.
        long stuckTicks = scalar(
                direct,
                "SELECT COUNT(*) FROM " + task + " WHERE kind = '" + TICK + "' AND state IN ('pending', 'running') AND"
                        + " id < (SELECT COALESCE(MAX(id), 0) FROM " + task + " WHERE kind = '" + TICK + "' AND "
                        + succeeded + ")");
        long looseUncounted = scalar(direct, runsAboveAttempts(prefix, "loose-member", "loose"));
        long expectedMembers = (long) batches * MEMBERS_PER_BATCH;
        long expectedSteps = 4L * diamonds;
        long lost = Math.max(0, expectedMembers - members)
                + Math.max(0, expectedSteps - steps)
                + Math.max(0, batches - completes)
                + Math.max(0, batches - successes)
                + memberWithoutEffect
                + looseWithoutRun
                + stepWithoutEffect
                + tickWithoutEffect
                + stuckTicks;
        long duplicates = Math.max(0, completes - batches) + Math.max(0, successes - batches);
        String summary = batches + " batches (" + members + " of " + expectedMembers + " members succeeded; callbacks"
                + " complete " + completes + ", success " + successes + "), " + diamonds + " diamond workflows ("
                + steps + " of " + expectedSteps + " steps succeeded, " + violations + " order violations), "
                + ticks + " schedule slots run (" + stuckTicks + " left behind)";
        return new Found(lost, duplicates, violations, looseUncounted, summary);
    }

    /**
     * Counts the tasks of {@code kind} whose handler ran (effect rows noted {@code note}) more often than their
     * attempts: every run must be a counted attempt. A join with the runs counted once per task, since the effect
     * table has no index and a count per task would read it once for each (hours at 200,000 tasks).
     */
    static String runsAboveAttempts(String prefix, String kind, String note) {
        return "SELECT COUNT(*) FROM " + prefix + "task t JOIN (SELECT task_id, COUNT(*) AS runs FROM " + prefix
                + "effect WHERE note = '" + note + "' GROUP BY task_id) r ON r.task_id = t.id WHERE t.kind = '" + kind
                + "' AND t.attempt < r.runs";
    }

    private long withoutEffect(DataSource direct, String kind, String effectCondition) throws SQLException {
        return scalar(
                direct,
                "SELECT COUNT(*) FROM " + prefix + "task t WHERE t.kind = '" + kind + "' AND t.state = 'succeeded' AND"
                        + " NOT EXISTS (SELECT 1 FROM " + prefix + "effect e WHERE e.task_id = t.id AND "
                        + effectCondition + ")");
    }

    static long scalar(DataSource direct, String sql) throws SQLException {
        try (Connection c = direct.getConnection();
                Statement s = c.createStatement();
                ResultSet rows = s.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
