package dev.errand.internal.store;

import dev.errand.spi.DatabaseClock;
import dev.errand.task.TaskProgress;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The progress that running tasks report ({@code TaskContext.progress}), in {@code <prefix>task_progress}: one
 * row per task, written in a transaction of its own by the node that runs the attempt, and deleted by that node
 * in the transaction that ends the attempt ({@link TaskStore}'s ending statements call {@link #clear}).
 *
 * <p>The node remembers which of its running tasks wrote a row, so that ending a task that never reported
 * progress (nearly all of them) costs no statement. An attempt that ends elsewhere (rescued by another node after
 * its lease expired) or whose ending rolled back may leave its row; {@link #read} shows a row only while its task
 * runs the attempt that wrote it, and the task's next report replaces it.
 */
public final class ProgressStore {

    private final Dialect dialect;
    private final DatabaseClock clock;
    private final String table;
    private final String taskTable;
    /** The tasks whose progress row this node wrote and has not deleted yet. */
    private final Set<Long> written = ConcurrentHashMap.newKeySet();

    /**
     * Creates the statements.
     *
     * @param dialect the dialect
     * @param taskTable the task table's name; the progress table is its name plus {@code _progress}
     * @param clock the node's clock
     */
    public ProgressStore(Dialect dialect, String taskTable, DatabaseClock clock) {
        this.dialect = dialect;
        this.clock = clock;
        this.taskTable = taskTable;
        this.table = taskTable + "_progress";
    }

    /** Writes a task's progress as of now: an UPDATE, or an INSERT for its first report. */
    public void write(Connection c, long taskId, int attempt, TaskProgress progress) throws SQLException {
        long offsetMicros = Micros.of(clock.offset());
        written.add(taskId);
        String now = dialect.timePlusMicros();
        try (PreparedStatement s = c.prepareStatement("UPDATE " + table + " SET attempt = ?, done = ?, total = ?,"
                + " message = ?, updated_at = " + now + " WHERE task_id = ?")) {
            int i = bind(s, attempt, progress, offsetMicros);
            s.setLong(i, taskId);
            if (s.executeUpdate() == 1) {
                return;
            }
        }
        try (PreparedStatement s = c.prepareStatement("INSERT INTO " + table
                + " (attempt, done, total, message, updated_at, task_id) VALUES (?, ?, ?, ?, " + now + ", ?)")) {
            int i = bind(s, attempt, progress, offsetMicros);
            s.setLong(i, taskId);
            s.executeUpdate();
        }
    }

    private static int bind(PreparedStatement s, int attempt, TaskProgress progress, long offsetMicros)
            throws SQLException {
        s.setInt(1, attempt);
        s.setLong(2, progress.done());
        s.setLong(3, progress.total());
        s.setString(4, progress.message());
        s.setLong(5, offsetMicros);
        return 6;
    }

    /**
     * Deletes the progress rows this node wrote for these tasks, on the transaction that ends them; no
     * statement when none of them wrote one.
     */
    public void clear(Connection c, long... taskIds) throws SQLException {
        if (written.isEmpty()) {
            return;
        }
        List<Long> ids = new ArrayList<>(1);
        for (long id : taskIds) {
            if (written.contains(id)) {
                ids.add(id);
            }
        }
        if (ids.isEmpty()) {
            return;
        }
        long[] values = ids.stream().mapToLong(Long::longValue).toArray();
        try (PreparedStatement s =
                c.prepareStatement("DELETE FROM " + table + " WHERE " + dialect.idIn("task_id", values.length))) {
            dialect.bindIds(s, 1, values);
            s.executeUpdate();
        }
        ids.forEach(written::remove);
    }

    /** A running task's progress, if the attempt that runs now reported one. */
    public Optional<TaskProgress> read(Connection c, long taskId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT p.done, p.total, p.message, p.attempt, p.updated_at FROM "
                + table + " p JOIN " + taskTable + " t ON t.id = p.task_id AND t.attempt = p.attempt"
                + " WHERE p.task_id = ? AND t.state = " + States.RUNNING)) {
            s.setLong(1, taskId);
            try (ResultSet row = s.executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                return Optional.of(new TaskProgress(
                        row.getLong(1),
                        row.getLong(2),
                        row.getString(3),
                        row.getInt(4),
                        dialect.readInstant(row, "updated_at")));
            }
        }
    }
}
