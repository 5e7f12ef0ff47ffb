package dev.errand.internal.store;

import dev.errand.spi.DatabaseClock;
import dev.errand.task.TaskState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Collections;
import java.util.Set;

/**
 * The SQL of retention: deleting finished tasks (succeeded, failed, cancelled) past their retention, a small
 * batch per transaction, oldest first. A batch reads its ids, then deletes them by id: short row locks, no
 * long statement, and safe when several nodes prune at once (a row deleted by one is skipped by the other).
 */
public final class FinishedTasks {

    /** The most rows one batch deletes. */
    public static final int BATCH = 1_000;

    private final Dialect dialect;
    private final DatabaseClock clock;
    private final String table;

    /** Creates the statements for the task table; its statements read the offset of the node's {@code clock} themselves. */
    public FinishedTasks(Dialect dialect, String table, DatabaseClock clock) {
        this.clock = clock;
        this.dialect = dialect;
        this.table = table;
    }

    /**
     * What one prune deletes: tasks in a final state that finished more than {@code ageMicros} ago, of one
     * kind, or of every kind but some.
     *
     * @param state succeeded, failed or cancelled
     * @param ageMicros the retention in microseconds
     * @param kind only this kind, or {@code null} for every kind
     * @param exceptKinds kinds left out (they have retentions of their own); empty for none
     */
    public record Selection(TaskState state, long ageMicros, String kind, Set<String> exceptKinds) {

        /** Copies the set. */
        public Selection {
            exceptKinds = Set.copyOf(exceptKinds);
        }
    }

    /**
     * Deletes every task the selection matches, {@link #BATCH} per transaction of its own.
     *
     * @return how many it deleted
     */
    public int prune(Transactions transactions, Selection selection) throws SQLException {
        long offsetMicros = offsetMicros();
        int pruned = 0;
        int batch;
        do {
            batch = transactions.run("prune " + selection.state().dbValue(), c -> pruneBatch(c, selection));
            pruned += batch;
        } while (batch == BATCH);
        return pruned;
    }

    private int pruneBatch(Connection c, Selection selection) throws SQLException {
        long offsetMicros = offsetMicros();
        StringBuilder sql = new StringBuilder(
                "SELECT id FROM " + table + " WHERE state = ? AND finished_at < " + dialect.timePlusMicros());
        if (selection.kind() != null) {
            sql.append(" AND kind = ?");
        }
        if (!selection.exceptKinds().isEmpty()) {
            sql.append(" AND kind NOT IN (")
                    .append(String.join(
                            ", ", Collections.nCopies(selection.exceptKinds().size(), "?")))
                    .append(')');
        }
        sql.append(" ORDER BY ")
                .append(dialect.orderAlongIndex("state", "finished_at"))
                .append(" LIMIT ")
                .append(BATCH);
        long[] idArray;
        try (PreparedStatement select = c.prepareStatement(sql.toString())) {
            int i = 1;
            select.setString(i++, selection.state().dbValue());
            select.setLong(i++, Micros.plus(offsetMicros, -selection.ageMicros()));
            if (selection.kind() != null) {
                select.setString(i++, selection.kind());
            }
            for (String except : selection.exceptKinds()) {
                select.setString(i++, except);
            }
            idArray = Jdbc.readIds(select);
        }
        if (idArray.length == 0) {
            return 0;
        }
        // The state again: an operator may have run a failed task again meanwhile.
        try (PreparedStatement delete = c.prepareStatement(
                "DELETE FROM " + table + " WHERE " + dialect.idIn("id", idArray.length) + " AND state = ?")) {
            int next = dialect.bindIds(delete, 1, idArray);
            delete.setString(next, selection.state().dbValue());
            return delete.executeUpdate();
        }
    }

    /** The clock's offset in microseconds, read for each statement that means "now". */
    private long offsetMicros() {
        return Micros.of(clock.offset());
    }
}
