package dev.errand.internal.store;

import dev.errand.spi.ClaimedTask;
import dev.errand.spi.TraceContext;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Reads task rows into the engine's values. */
public final class TaskRows {

    /** The columns {@link #claimed} reads. */
    public static final String CLAIMED_COLUMNS =
            "id, kind, queue, payload, attempt, max_attempts, batch_id, has_dependents, trace_parent, trace_state";

    private TaskRows() {}

    private static ClaimedTask.Links links(long batchId, boolean hasDependents) {
        return batchId == 0 && !hasDependents ? ClaimedTask.Links.NONE : new ClaimedTask.Links(batchId, hasDependents);
    }

    /** The stored trace context; a row written by hand with a malformed one runs without it. */
    private static TraceContext trace(String traceparent, String tracestate) {
        return traceparent == null ? TraceContext.NONE : TraceContext.of(traceparent, tracestate);
    }

    /**
     * A claimed task from a row with {@link #CLAIMED_COLUMNS}.
     *
     * @param token the lease token the claim wrote
     * @param attemptDelta what to add to the row's {@code attempt}: 1 when the row was read before the
     *     claim's update counted the attempt, 0 when it was read after
     */
    public static ClaimedTask claimed(ResultSet row, long token, int attemptDelta) throws SQLException {
        return new ClaimedTask(
                row.getLong("id"),
                row.getString("kind"),
                row.getString("queue"),
                row.getString("payload"),
                row.getInt("attempt") + attemptDelta,
                row.getInt("max_attempts"),
                token,
                links(row.getLong("batch_id"), row.getBoolean("has_dependents")),
                trace(row.getString("trace_parent"), row.getString("trace_state")));
    }
}
